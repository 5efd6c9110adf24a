import "server-only";
import type { SessionUser } from "@/src/access/viewer";
import { hasRole } from "@/src/access/roles";
import { getEnv } from "@/src/config/env";
import { type DatabaseHandle, getDatabaseKind } from "@/src/db/client";
import type { PhotoRow } from "@/src/db/database";
import { AppError } from "@/src/errors/app-error";
import type { ImageType } from "@/src/images/image-type-detector";
import type { DecodedPhoto } from "@/src/images/photo-decoder";
import { resolveImageType } from "@/src/images/raw/raw-format-detector";
import { checkUploadedImage } from "@/src/images/upload-check";
import { whileUploading } from "@/src/jobs/worker";
import { getLogger } from "@/src/log/logger";
import { createPhoto } from "@/src/photos/photo-lifecycle";
import { getProcessingLimits } from "@/src/photos/photo-processing.job";
import { findOwnPhotoBySha256, sumOriginalBytes } from "@/src/photos/photos.repository";
import { getTemporaryDirectory } from "@/src/storage/temporary-files";
import { sumPendingDeclaredBytes } from "./pending-uploads.service";
import { type ReceivedFile, removeReceivedFiles } from "./received-file";
import { sanitizeFileName } from "./sanitize-file-name";

/** What the uploader hears back about one file. */
export interface UploadOutcome {
  id: string;
  status: PhotoRow["status"];
  name: string;
  isDuplicate: boolean;
}

/** Where and how much a request may put on local disk; the HTTP layer's receiver keeps to it. */
export interface ReceiveLimits {
  tempDirectory: string;
  maxFileBytes: number;
  maxFiles: number;
}

/**
 * POST /api/upload's work: has `receive` bring every file to local disk within the limits (the
 * route streams the multipart body, src/uploads/multipart-files.ts), then stores each as a new photo
 * (or reports the one that already has its bytes). Every temporary file is removed whatever happens.
 */
export async function uploadPhotos(
  db: DatabaseHandle,
  user: SessionUser,
  receive: (limits: ReceiveLimits) => Promise<ReceivedFile[]>,
): Promise<UploadOutcome[]> {
  if (!hasRole(user.role, "editor")) throw new AppError("FORBIDDEN", "Only editors and admins upload photos.");
  const env = getEnv();
  return whileUploading(async () => {
    const files = await receive({
      tempDirectory: getTemporaryDirectory(),
      maxFileBytes: env.MAX_UPLOAD_BYTES,
      maxFiles: env.MAX_UPLOAD_FILES,
    });
    try {
      return await storeReceivedFiles(db, user, files);
    } finally {
      await removeReceivedFiles(files);
    }
  });
}

/**
 * Stores files that have arrived on local disk (by multipart or tus) as new photos, or reports the
 * photo that already has their bytes. Every file is judged before any is stored, so one bad file
 * refuses the request without half of it kept. The caller removes the temporary files.
 * `finishingUploadId` names the tus upload these bytes finish, whose reservation they replace.
 * `db` opens transactions, so it must not be a transaction itself.
 */
export async function storeReceivedFiles(
  db: DatabaseHandle,
  user: SessionUser,
  files: ReceivedFile[],
  finishingUploadId?: string,
): Promise<UploadOutcome[]> {
  if (!hasRole(user.role, "editor")) throw new AppError("FORBIDDEN", "Only editors and admins upload photos.");
  // Files whose bytes the user already has: they take no room, and they passed the check when they
  // were first uploaded, so a re-imported folder's duplicates are answered without decoding again.
  const duplicatesOf: Array<PhotoRow | undefined> = [];
  for (const file of files) duplicatesOf.push(await findOwnPhotoBySha256(db, user.id, file.sha256));
  await assertWithinQuota(db, user, files.filter((_file, index) => !duplicatesOf[index]), getEnv().UPLOAD_QUOTA_BYTES, finishingUploadId);
  const limits = getProcessingLimits();
  const checked: CheckedFile[] = [];
  for (const [index, file] of files.entries()) {
    const type = await resolveImageType(file.tempPath, file.head);
    if (!type) {
      throw new AppError(
        "UNSUPPORTED_MEDIA_TYPE",
        `${JSON.stringify(sanitizeFileName(file.clientName))} is not a photo we can read (JPEG, PNG, WebP, AVIF, HEIC, TIFF, GIF or a camera RAW).`,
      );
    }
    const duplicateOf = duplicatesOf[index];
    if (duplicateOf) {
      checked.push({ file, type, smallDecode: null, duplicateOf });
      continue;
    }
    const smallDecode = await checkUploadedImage(file.tempPath, type, limits).catch((error: unknown) => {
      if (error instanceof AppError) throw new AppError(error.code, `${JSON.stringify(sanitizeFileName(file.clientName))}: ${error.message}`);
      throw error;
    });
    checked.push({ file, type, smallDecode });
  }
  const outcomes: UploadOutcome[] = [];
  for (const file of checked) outcomes.push(await storePhoto(db, user, file));
  return outcomes;
}

/**
 * A received file that passed the upload checks, with the decode that proved it sound (not for
 * HEIC), or the photo that already has its bytes.
 */
interface CheckedFile {
  file: ReceivedFile;
  type: ImageType;
  smallDecode: DecodedPhoto | null;
  duplicateOf?: PhotoRow;
}

/**
 * Refuses files that would take the user past their storage quota (UPLOAD_QUOTA_BYTES; 0 is none).
 * The declared bytes of the user's unfinished tus uploads count as used: they were promised room
 * when they were created (all but the one these files finish).
 */
async function assertWithinQuota(db: DatabaseHandle, user: SessionUser, files: ReceivedFile[], quotaBytes: number, finishingUploadId?: string): Promise<void> {
  if (quotaBytes === 0) return;
  const used = await sumOriginalBytes(db, user.id);
  const reserved = await sumPendingDeclaredBytes(db, user.id, finishingUploadId);
  const incoming = files.reduce((total, file) => total + file.size, 0);
  if (used + reserved + incoming > quotaBytes) {
    const megabytes = (bytes: number) => `${Math.ceil(bytes / 1_000_000)} MB`;
    const held = reserved > 0 ? `, ${megabytes(reserved)} held by unfinished uploads` : "";
    const advice = reserved > 0 ? "Finish or cancel unfinished uploads, delete photos," : "Delete photos";
    throw new AppError(
      "PAYLOAD_TOO_LARGE",
      `This upload would exceed your storage quota of ${megabytes(quotaBytes)} (${megabytes(used)} used${held}). ${advice} or ask an admin for more room.`,
    );
  }
}

async function storePhoto(db: DatabaseHandle, user: SessionUser, { file, type, smallDecode, duplicateOf }: CheckedFile): Promise<UploadOutcome> {
  const name = sanitizeFileName(file.clientName);
  // (Should duplicateOf be deleted meanwhile, the answer still names it.) One in the trash goes on
  // to createPhoto, which brings it back: the uploader wants the photo they just sent.
  if (duplicateOf && duplicateOf.trashed_at === null) return { id: duplicateOf.id, status: duplicateOf.status, name, isDuplicate: true };
  // createPhoto looks the bytes up again: the same bytes twice in one batch, or from another upload since.
  const photo = await createPhoto(db, {
    ownerId: user.id,
    sha256: file.sha256,
    originalName: name,
    type,
    size: file.size,
    sourcePath: file.tempPath,
    visibleDecode: smallDecode,
  });
  if (!photo.isDuplicate) getLogger().info({ photoId: photo.id, type, size: file.size, database: getDatabaseKind() }, "photo uploaded");
  return { id: photo.id, status: photo.status, name, isDuplicate: photo.isDuplicate };
}
