import path from "node:path";
import { z } from "zod";

/** What a backup's manifest.json says it is; a restore refuses any other. */
export const BACKUP_FORMAT = "contact-sheet-backup";
export const BACKUP_FORMAT_VERSION = 1;
export const MANIFEST_FILE_NAME = "manifest.json";

/** Paths inside a backup: plain relative names, `/`-separated, nothing a path could climb out with. */
const SAFE_RELATIVE_PATH = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

export function isSafeBackupPath(relative: string): boolean {
  return SAFE_RELATIVE_PATH.test(relative) && relative.split("/").every((segment) => segment !== "." && segment !== "..") && path.posix.normalize(relative) === relative;
}

const backupFile = z.object({ path: z.string(), size: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) });

export const backupManifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  formatVersion: z.number().int(),
  /** The last migration the snapshot's database had run. */
  schemaVersion: z.string(),
  createdAt: z.string(),
  database: z.object({ kind: z.enum(["sqlite", "postgres"]), path: z.string() }),
  storage: z.object({ kind: z.enum(["local", "s3"]), bucket: z.string().optional() }),
  counts: z.object({
    users: z.number().int().min(0),
    photos: z.number().int().min(0),
    albums: z.number().int().min(0),
    variants: z.number().int().min(0),
    /** Bytes of the originals and variants the database names. */
    mediaBytes: z.number().int().min(0),
  }),
  /** Every file in the backup but the manifest itself, with its SHA-256. */
  files: z.array(backupFile),
  /** Files the database named that were gone when copied (their photo was deleted meanwhile). */
  missingMedia: z.array(z.string()),
  /** S3: the bucket's objects when the backup was made (the bucket itself is copied with rclone or aws s3 sync). */
  objects: z.array(z.object({ key: z.string(), size: z.number().int().min(0), etag: z.string().optional() })).optional(),
});

export type BackupManifest = z.infer<typeof backupManifestSchema>;
export type BackupFile = z.infer<typeof backupFile>;
