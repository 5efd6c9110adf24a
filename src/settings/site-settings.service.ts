import "server-only";
import { insertAuditEntry } from "@/src/audit/audit.repository";
import type { SessionUser } from "@/src/access/viewer";
import type { DatabaseHandle } from "@/src/db/client";
import { inTransaction } from "@/src/db/transaction";
import { AppError } from "@/src/errors/app-error";
import { findSetting, upsertSetting } from "./settings.repository";
import type { UpdateSiteSettingsInput } from "./site-settings.schemas";

/** The settings an admin chooses for the whole site. */
export interface SiteSettings {
  /** Whether people other than a photo's owner may download it (a download copy); each photo may override it. Off by default. */
  allowDownloads: boolean;
}

const ALLOW_DOWNLOADS_KEY = "site.allow_downloads";

export async function getSiteSettings(db: DatabaseHandle): Promise<SiteSettings> {
  return { allowDownloads: (await findSetting(db, ALLOW_DOWNLOADS_KEY)) === "true" };
}

export async function updateSiteSettings(db: DatabaseHandle, actor: SessionUser, input: UpdateSiteSettingsInput): Promise<SiteSettings> {
  // The handler wrapper checks this too; services check again so no caller can forget.
  if (actor.role !== "admin") throw new AppError("FORBIDDEN", "Only admins can change the site's settings.");
  const now = new Date().toISOString();
  await inTransaction(db, async (transaction) => {
    if (input.allowDownloads !== undefined) await upsertSetting(transaction, ALLOW_DOWNLOADS_KEY, String(input.allowDownloads));
    await insertAuditEntry(transaction, { actorId: actor.id, action: "settings.update", targetId: null, details: input }, now);
  });
  return getSiteSettings(db);
}
