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
  /** How many days photos stay in the trash before they and their files are deleted for good. 30 by default. */
  trashRetentionDays: number;
}

const ALLOW_DOWNLOADS_KEY = "site.allow_downloads";
const TRASH_RETENTION_DAYS_KEY = "site.trash_retention_days";
export const DEFAULT_TRASH_RETENTION_DAYS = 30;

function readDays(value: string | undefined | null, fallback: number): number {
  const days = Number(value);
  return value && Number.isInteger(days) && days > 0 ? days : fallback;
}

export async function getSiteSettings(db: DatabaseHandle): Promise<SiteSettings> {
  const [allowDownloads, trashRetentionDays] = await Promise.all([findSetting(db, ALLOW_DOWNLOADS_KEY), findSetting(db, TRASH_RETENTION_DAYS_KEY)]);
  return { allowDownloads: allowDownloads === "true", trashRetentionDays: readDays(trashRetentionDays, DEFAULT_TRASH_RETENTION_DAYS) };
}

export async function updateSiteSettings(db: DatabaseHandle, actor: SessionUser, input: UpdateSiteSettingsInput): Promise<SiteSettings> {
  // The handler wrapper checks this too; services check again so no caller can forget.
  if (actor.role !== "admin") throw new AppError("FORBIDDEN", "Only admins can change the site's settings.");
  const now = new Date().toISOString();
  await inTransaction(db, async (transaction) => {
    if (input.allowDownloads !== undefined) await upsertSetting(transaction, ALLOW_DOWNLOADS_KEY, String(input.allowDownloads));
    if (input.trashRetentionDays !== undefined) await upsertSetting(transaction, TRASH_RETENTION_DAYS_KEY, String(input.trashRetentionDays));
    await insertAuditEntry(transaction, { actorId: actor.id, action: "settings.update", targetId: null, details: input }, now);
  });
  return getSiteSettings(db);
}
