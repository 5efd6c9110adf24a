import "server-only";
import type { SessionUser } from "@/src/access/viewer";
import { getEnv } from "@/src/config/env";
import type { DatabaseHandle } from "@/src/db/client";
import { AppError } from "@/src/errors/app-error";
import { type BackupStatus, findLastBackupStatus } from "./backup-status";

export interface BackupOverview {
  last: BackupStatus | null;
  /** The scheduled backup's settings, or null when BACKUP_DIR is unset. */
  schedule: { directory: string; everyHours: number; keep: number } | null;
}

/** What the dashboard says about backups: admins only (it names a folder on the server). */
export async function getBackupOverview(db: DatabaseHandle, viewer: SessionUser): Promise<BackupOverview> {
  if (viewer.role !== "admin") throw new AppError("FORBIDDEN", "Only admins see backups.");
  const env = getEnv();
  return {
    last: await findLastBackupStatus(db),
    schedule: env.BACKUP_DIR ? { directory: env.BACKUP_DIR, everyHours: env.BACKUP_EVERY_HOURS, keep: env.BACKUP_KEEP } : null,
  };
}
