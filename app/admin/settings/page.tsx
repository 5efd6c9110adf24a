import type { Metadata } from "next";
import { requirePageUser } from "@/src/auth/page-guard";
import { getEnv } from "@/src/config/env";
import { getDb } from "@/src/db/client";
import { FaceSettingsForm } from "@/src/faces/components/face-settings-form";
import { readFaceSettings } from "@/src/faces/face-settings";
import { SiteSettingsForm } from "@/src/settings/components/site-settings-form";
import { getSiteSettings } from "@/src/settings/site-settings.service";
import { AdminPage } from "@/src/ui/admin-page";

export const metadata: Metadata = { title: "Settings" };

// /admin/settings – the site's title, description, defaults for new uploads, downloads, analytics, audit retention (admins)
export default async function AdminSettingsPage() {
  const user = await requirePageUser("admin", "/admin/settings");
  const [settings, faceSettings] = await Promise.all([getSiteSettings(getDb()), readFaceSettings(getDb())]);
  return (
    <AdminPage role={user.role} title="Settings" intro="What the whole site shows and does by default. Changes take effect at once and are recorded in the audit log.">
      <SiteSettingsForm initialSettings={settings} environmentAnalyticsUrl={getEnv().ANALYTICS_SCRIPT_URL ?? null} />
      <FaceSettingsForm initialSettings={faceSettings} />
    </AdminPage>
  );
}
