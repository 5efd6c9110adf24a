import Script from "next/script";
import type { ReactNode } from "react";
import { getEnv } from "@/src/config/env";
import { getDb } from "@/src/db/client";
import { getSiteSettings } from "@/src/settings/site-settings.service";

// Public pages only: the optional analytics script never loads on admin, sign-in or setup pages.
// The admin's setting wins; ANALYTICS_SCRIPT_URL is the default when none is set.
export default async function GalleryLayout({ children }: { children: ReactNode }) {
  const analyticsScriptUrl = (await getSiteSettings(getDb())).analyticsScriptUrl ?? getEnv().ANALYTICS_SCRIPT_URL;
  return (
    <>
      {children}
      {analyticsScriptUrl && <Script src={analyticsScriptUrl} strategy="afterInteractive" data-testid="analytics-script" />}
    </>
  );
}
