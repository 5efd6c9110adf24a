import { z } from "zod";
import type { DatabaseHandle } from "@/src/db/client";
import { findSetting, upsertSetting } from "@/src/settings/settings.repository";

/** The settings row that remembers the last backup's outcome, whoever made it, for the dashboard. */
const LAST_BACKUP_KEY = "backup.last_result";

const backupStatusSchema = z.object({
  finishedAt: z.string(),
  ok: z.boolean(),
  trigger: z.enum(["scheduled", "command"]),
  /** The backup's folder when it worked; why not when it failed. */
  detail: z.string(),
  photos: z.number().int().optional(),
  mediaBytes: z.number().int().optional(),
});

export type BackupStatus = z.infer<typeof backupStatusSchema>;

export async function recordBackupStatus(db: DatabaseHandle, status: BackupStatus): Promise<void> {
  await upsertSetting(db, LAST_BACKUP_KEY, JSON.stringify(status));
}

/** The last backup's outcome, or null when none was recorded (or the row is not one this version reads). */
export async function findLastBackupStatus(db: DatabaseHandle): Promise<BackupStatus | null> {
  const value = await findSetting(db, LAST_BACKUP_KEY);
  if (!value) return null;
  try {
    const parsed = backupStatusSchema.safeParse(JSON.parse(value));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
