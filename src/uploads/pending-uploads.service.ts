import "server-only";
import type { SessionUser } from "@/src/access/viewer";
import { getEnv } from "@/src/config/env";
import { type DatabaseHandle, getDatabaseKind } from "@/src/db/client";
import { AppError } from "@/src/errors/app-error";
import { sumOriginalBytes } from "@/src/photos/photos.repository";
import { deletePendingUpload, findPendingUsage, insertPendingUpload, listPendingUploadsCreatedBefore, lockPendingUploadsOf } from "./pending-uploads.repository";

const megabytes = (bytes: number) => `${Math.ceil(bytes / 1_000_000)} MB`;

/**
 * Records a new resumable upload as its owner's, in the same transaction as the checks it must
 * pass, so that no two creations (on any app instance) both take the last slot or the last bytes:
 * at most MAX_UNFINISHED_UPLOADS unfinished uploads (429), and the declared bytes of all of them
 * plus the stored originals within UPLOAD_QUOTA_BYTES (413). The row is inserted first and the
 * totals read with it, so on SQLite the transaction holds the write lock from its first statement.
 * `db` opens the transaction, so it must not be a transaction itself.
 */
export async function reservePendingUpload(db: DatabaseHandle, user: SessionUser, uploadId: string, declaredBytes: number): Promise<void> {
  const env = getEnv();
  await db
    .transaction()
    .execute(async (transaction) => {
      await lockPendingUploadsOf(transaction, getDatabaseKind(), user.id);
      await insertPendingUpload(transaction, { upload_id: uploadId, owner_id: user.id, declared_bytes: declaredBytes, created_at: new Date().toISOString() });
      const pending = await findPendingUsage(transaction, user.id);
      if (pending.count > env.MAX_UNFINISHED_UPLOADS) {
        // 429 rather than 409: the uploader keeps the file and its Retry (tus clients read 409 as
        // a wrong offset and retry at once), and the cap lifts as the user's other uploads end.
        throw new AppError(
          "RATE_LIMITED",
          `You already have ${env.MAX_UNFINISHED_UPLOADS} unfinished uploads. Let them finish, or cancel some, then try again.`,
        );
      }
      if (env.UPLOAD_QUOTA_BYTES === 0) return;
      const stored = await sumOriginalBytes(transaction, user.id);
      if (stored + pending.declaredBytes > env.UPLOAD_QUOTA_BYTES) {
        const reserved = pending.declaredBytes - declaredBytes;
        throw new AppError(
          "PAYLOAD_TOO_LARGE",
          `This upload of ${megabytes(declaredBytes)} would exceed your storage quota of ${megabytes(env.UPLOAD_QUOTA_BYTES)} ` +
            `(${megabytes(stored)} stored, ${megabytes(reserved)} held by unfinished uploads). ` +
            "Finish or cancel unfinished uploads, delete photos, or ask an admin for more room.",
        );
      }
    });
}

/** Frees what an upload reserved, once it has finished (stored or refused), been deleted or expired. */
export async function releasePendingUpload(db: DatabaseHandle, uploadId: string): Promise<void> {
  await deletePendingUpload(db, uploadId);
}

/**
 * Frees what abandoned uploads reserved: rows older than `maxAgeMs` whose upload the store no
 * longer has (the expiry sweep removed it, or the server died before the row went). A row whose
 * upload still moves (local uploads expire by their last write, not their age) stays.
 * Answers how many went.
 */
export async function releaseAbandonedPendingUploads(
  db: DatabaseHandle,
  maxAgeMs: number,
  hasUpload: (uploadId: string) => Promise<boolean>,
): Promise<number> {
  const rows = await listPendingUploadsCreatedBefore(db, new Date(Date.now() - maxAgeMs).toISOString());
  let released = 0;
  for (const row of rows) {
    if (await hasUpload(row.upload_id)) continue;
    await releasePendingUpload(db, row.upload_id);
    released += 1;
  }
  return released;
}

/** What the user's unfinished uploads hold of their quota, except the one finishing now. */
export async function sumPendingDeclaredBytes(db: DatabaseHandle, userId: string, exceptUploadId?: string): Promise<number> {
  return (await findPendingUsage(db, userId, exceptUploadId)).declaredBytes;
}
