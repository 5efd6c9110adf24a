import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { requirePageUser } from "@/src/auth/page-guard";
import { getDb } from "@/src/db/client";
import { AppError } from "@/src/errors/app-error";
import { ShareAccessLog } from "@/src/shares/components/share-access-log";
import { ShareAdminHeader } from "@/src/shares/components/share-admin-header";
import { describeViews, formatInstant } from "@/src/shares/components/share-client";
import { ShareSettingsForm } from "@/src/shares/components/share-settings-form";
import { getShare, listShareAccessLog } from "@/src/shares/shares.service";
import type { ShareSummary } from "@/src/shares/shares-owner.types";
import { AdminPage } from "@/src/ui/admin-page";
import { identifierFromSegment } from "@/src/http/route-segment";

interface AdminSharePageProps {
  params: Promise<{ id: string }>;
}

// Memoised per request: the title and the page read the link once. Not there, or someone else's
// (unless the reader is an admin): the 404 page.
const findManageableShare = cache(async (id: string): Promise<ShareSummary> => {
  const user = await requirePageUser("editor", `/admin/shares/${encodeURIComponent(id)}`);
  try {
    return await getShare(getDb(), user, identifierFromSegment(id) ?? notFound());
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") notFound();
    throw error;
  }
});

export async function generateMetadata({ params }: AdminSharePageProps): Promise<Metadata> {
  const share = await findManageableShare((await params).id);
  return { title: `Share: ${share.title}` };
}

// /admin/shares/[id] – one link: copy it, its settings, password, revoke, its numbers and its access log
export default async function AdminSharePage({ params }: AdminSharePageProps) {
  const { id } = await params;
  const user = await requirePageUser("editor", `/admin/shares/${encodeURIComponent(id)}`);
  const share = await findManageableShare(id);
  const log = await listShareAccessLog(getDb(), user, share.id, { limit: 50 });
  const stats = [
    { label: "Photos", value: String(share.photoCount) },
    { label: share.maxViews === null ? "Views" : "Views / limit", value: describeViews(share) },
    { label: "Downloads", value: String(share.downloads) },
    { label: "Last visit", value: formatInstant(share.lastVisitedAt, "Not yet") },
  ];
  return (
    <AdminPage role={user.role} title={share.title}>
      <ShareAdminHeader share={share} current="settings" />
      <dl className="stats share-stats">
        {stats.map((stat) => (
          <div key={stat.label} className="stat">
            <dt className="stat-label">{stat.label}</dt>
            <dd className="stat-value">{stat.value}</dd>
          </div>
        ))}
      </dl>
      <p className="muted share-meta">
        {user.role === "admin" && share.owner.id !== user.id ? `Made by ${share.owner.name} · ` : ""}
        Made {formatInstant(share.createdAt, "")} · {share.expiresAt === null ? "Never expires" : `Expires ${formatInstant(share.expiresAt, "")}`}
      </p>
      <ShareSettingsForm key={share.updatedAt} initialShare={share} />
      <h2>Access log</h2>
      <ShareAccessLog shareId={share.id} initialEntries={log.entries} initialCursor={log.nextCursor} />
    </AdminPage>
  );
}
