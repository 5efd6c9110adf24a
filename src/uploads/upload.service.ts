import "server-only";
import type { SessionUser } from "@/src/access/viewer";
import { hasRole } from "@/src/access/roles";
import { getEnv } from "@/src/config/env";
import { type DatabaseHandle, getDatabaseKind } from "@/src/db/client";
import type { PhotoRow } from "@/src/db/database";
import { AppError } from "@/src/errors/app-error";
import type { ImageType } from "@/src/images/image-type-detector";
import type { DecodedPhoto } from "@/src/images/photo-decoder";
import { readStillContentIdentifier } from "@/src/images/live/still-content-identifier";
import { resolveImageType } from "@/src/images/raw/raw-format-detector";
import { checkUploadedImage } from "@/src/images/upload-check";
import { rm } from "node:fs/promises";
import { whileUploading } from "@/src/jobs/worker";
import { getLogger } from "@/src/log/logger";
import { attachLiveMotion, findLiveStill, findLoneLiveVideos, foldLiveVideosInto } from "@/src/photos/live-photo-pairing";
import { extractMotionClip, keepMotionClip } from "@/src/photos/motion-clip";
import { createPhoto } from "@/src/photos/photo-lifecycle";
import { getProcessingLimits } from "@/src/photos/photo-processing.job";
import { findOwnPhotoBySha256, findPhotoByIdEvenTrashed, sumOriginalBytes } from "@/src/photos/photos.repository";
import {
  attachRawCompanion,
  findLoneRawPhoto,
  findPhotoWithRawCompanion,
  findRawHost,
  foldRawPhotoInto,
  pairingNameOf,
  type RawCompanionSource,
  readCaptureTime,
} from "@/src/photos/raw-pairing";
import { getTemporaryDirectory } from "@/src/storage/temporary-files";
import { sumPendingDeclaredBytes } from "./pending-uploads.service";
import { type ReceivedFile, removeReceivedFiles } from "./received-file";
import { sanitizeFileName } from "./sanitize-file-name";
import { getVideoLimits, getVideoTools, getVideoToolsStatus } from "@/src/video/configured-video-tools";
import { probeVideo, UnreadableVideoError, type VideoProbe } from "@/src/video/video-probe";
import { detectVideoType, type VideoType } from "@/src/video/video-type-detector";

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
      checked.push(await checkVideo(file, duplicatesOf[index]));
      continue;
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
  return storeCheckedFiles(db, user, checked);
}

/**
 * Stores checked files as photos, in the order asked, except that a RAW and a JPEG (or any other
 * photo) of the same name in this request become one photo: the other file first, then the RAW
 * beside it (src/photos/raw-pairing.ts). A RAW's outcome then names the photo it joined. Videos
 * with a Live Photo's content identifier come after the photos, so a MOV finds its still when both
 * are in the request (src/photos/live-photo-pairing.ts).
 */
async function storeCheckedFiles(db: DatabaseHandle, user: SessionUser, checked: CheckedFile[]): Promise<UploadOutcome[]> {
  const outcomes: Array<UploadOutcome | undefined> = new Array(checked.length);
  const hostIndexOf = pairWithinRequest(checked);
  const rank = (index: number) => Number(hostIndexOf.has(index)) * 2 + Number(Boolean(checked[index].probe?.contentIdentifier));
  const order = checked.map((_file, index) => index).sort((a, b) => rank(a) - rank(b));
  for (const index of order) {
    const file = checked[index];
    const hostIndex = hostIndexOf.get(index);
    const host = hostIndex === undefined ? undefined : outcomes[hostIndex];
    if (host && !host.isDuplicate && (await attachRawCompanion(db, host.id, rawSourceOf(file)))) {
      outcomes[index] = { ...host, name: sanitizeFileName(file.file.clientName) };
      continue;
    }
    outcomes[index] = await storeAndPair(db, user, file);
  }
  return outcomes as UploadOutcome[];
}

/** For each RAW in the request, the index of the one other file of its name (a name with more files pairs none). */
function pairWithinRequest(checked: CheckedFile[]): Map<number, number> {
  const byName = new Map<string, number[]>();
  checked.forEach((file, index) => {
    const name = pairingNameOf(sanitizeFileName(file.file.clientName));
    byName.set(name, [...(byName.get(name) ?? []), index]);
  });
  const hostIndexOf = new Map<number, number>();
  for (const indexes of byName.values()) {
    if (indexes.length !== 2) continue;
    const [raw, other] = checked[indexes[0]].type === "raw" ? indexes : [...indexes].reverse();
    if (checked[raw].type === "raw" && checked[other].type !== "raw") hostIndexOf.set(raw, other);
  }
  return hostIndexOf;
}

function rawSourceOf({ file }: CheckedFile): RawCompanionSource {
  return { sourcePath: file.tempPath, name: sanitizeFileName(file.clientName), size: file.size, sha256: file.sha256 };
}

/**
 * Stores a file whose other half (if it has one) came in another request, before or after: a RAW
 * joins its JPEG's photo, or becomes a photo and, should the JPEG's photo have appeared meanwhile,
 * folds into it; a JPEG becomes a photo and takes over its RAW's photo if there is one.
 */
async function storeAndPair(db: DatabaseHandle, user: SessionUser, file: CheckedFile): Promise<UploadOutcome> {
  const name = sanitizeFileName(file.file.clientName);
  const pairingName = pairingNameOf(name);
  if (file.duplicateOf) return storePhoto(db, user, file, pairingName);
  if (file.probe) return storeVideoOrLiveMotion(db, user, file, pairingName, file.probe.contentIdentifier);
  if (file.type === "raw") {
    const kept = await findPhotoWithRawCompanion(db, user.id, file.file.sha256);
    if (kept) return { id: kept.id, status: kept.status, name, isDuplicate: true };
  }
  const takenAt = await readCaptureTime(file.file.tempPath, file.type as ImageType, file.smallDecode?.metadata);
  if (file.type === "raw") {
    const host = await findRawHost(db, user.id, pairingName, takenAt);
    if (host && (await attachRawCompanion(db, host.id, rawSourceOf(file)))) return { id: host.id, status: host.status, name, isDuplicate: false };
  }
  const liveContentId = file.type === "raw" ? null : await readStillContentIdentifier(file.file.tempPath, file.type as ImageType);
  const outcome = await storePhoto(db, user, file, pairingName, liveContentId);
  if (outcome.isDuplicate) return outcome;
  // A Live Photo's MOVs that came first are videos of their own until now: the still takes them over.
  if (liveContentId) {
    const videos = await findLoneLiveVideos(db, user.id, liveContentId);
    if (videos.length > 0) await foldLiveVideosInto(db, videos, outcome.id);
  }
  // Looked for after storing, so that of two halves arriving at once the later one finds the other.
  if (file.type === "raw") {
    const host = await findRawHost(db, user.id, pairingName, takenAt);
    const raw = host && (await findPhotoByIdEvenTrashed(db, outcome.id));
    if (host && raw && (await foldRawPhotoInto(db, raw, host.id))) return { id: host.id, status: host.status, name, isDuplicate: false };
  } else {
    const raw = await findLoneRawPhoto(db, user.id, pairingName, takenAt);
    if (raw) await foldRawPhotoInto(db, raw, outcome.id);
  }
  return outcome;
}

/**
 * Stores a video, unless it is a Live Photo's MOV whose still the user has: then it becomes that
 * photo's motion clip and the outcome names the photo. A MOV for a still that has its clip already
 * (the same MOV sent again, or a second one) is answered as that photo and not stored: the first
 * wins. A MOV stored as a video looks for its still once more afterwards, so that of two halves
 * arriving at once the later one finds the other (and a MOV racing another one for a still whose
 * clip the other became is removed again, answered as a duplicate).
 */
async function storeVideoOrLiveMotion(db: DatabaseHandle, user: SessionUser, file: CheckedFile, pairingName: string, contentId: string | null): Promise<UploadOutcome> {
  if (!contentId) return storePhoto(db, user, file, pairingName);
  const name = sanitizeFileName(file.file.clientName);
  const still = await findLiveStill(db, user.id, contentId);
  if (still) {
    const attached = !still.motion_clip_key && (await attachLiveMotion(db, still.id, { sourcePath: file.file.tempPath, size: file.file.size }));
    if (!attached) getLogger().info({ photoId: still.id, fileName: name }, "Live Photo: a second MOV for a still that has its clip, not stored");
    return { id: still.id, status: still.status, name, isDuplicate: !attached };
  }
  const outcome = await storePhoto(db, user, file, pairingName, contentId);
  if (outcome.isDuplicate) return outcome;
  const lateStill = await findLiveStill(db, user.id, contentId);
  const video = lateStill && (await findPhotoByIdEvenTrashed(db, outcome.id));
  if (!lateStill || !video) return outcome;
  const folded = await foldLiveVideosInto(db, [video], lateStill.id);
  if (folded === "still gone") return outcome;
  return { id: lateStill.id, status: lateStill.status, name, isDuplicate: folded === "dropped" };
}

/**
 * A received file that passed the upload checks, with the decode that proved it sound (not for
 * HEIC), or the photo that already has its bytes.
 */
interface CheckedFile {
  file: ReceivedFile;
  type: ImageType | VideoType;
  smallDecode: DecodedPhoto | null;
  /** A video's probe: what it is, read before it is stored. */
  probe?: VideoProbe;
  duplicateOf?: PhotoRow;
}

/**
 * A file that is not a photo may be a video, decided by its bytes as photos are. It is probed
 * before anything is stored, so a file that only looks like a video (truncated, 0 bytes, no video
 * stream, too long) is refused while the uploader waits. Without ffmpeg here, videos are refused
 * with 415 and the reason, never half taken.
 */
async function checkVideo(file: ReceivedFile, duplicateOf: PhotoRow | undefined): Promise<CheckedFile> {
  const name = JSON.stringify(sanitizeFileName(file.clientName));
  const type = detectVideoType(file.head);
  if (!type) {
    throw new AppError(
      "UNSUPPORTED_MEDIA_TYPE",
      // Kept to one line in the uploader's list of refused files; its note names the video containers.
      `${name} is not a photo we can read (JPEG, PNG, WebP, AVIF, HEIC, TIFF, GIF or a camera RAW) or a video.`,
    );
  }
  if (duplicateOf) return { file, type, smallDecode: null, duplicateOf };
  const tools = await getVideoToolsStatus();
  if (!tools.available) throw new AppError("UNSUPPORTED_MEDIA_TYPE", `${name} is a video, and this server cannot take videos: ${tools.message}`);
  try {
    return { file, type, smallDecode: null, probe: await probeVideo(getVideoTools(), file.tempPath, type, getVideoLimits()) };
  } catch (error) {
    if (error instanceof UnreadableVideoError) throw new AppError("INVALID_INPUT", `${name}: ${error.message}`);
    throw error;
  }
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

async function storePhoto(
  db: DatabaseHandle,
  user: SessionUser,
  { file, type, smallDecode, probe, duplicateOf }: CheckedFile,
  pairingName: string,
  liveContentId: string | null = null,
): Promise<UploadOutcome> {
  const name = sanitizeFileName(file.clientName);
  // (Should duplicateOf be deleted meanwhile, the answer still names it.) One in the trash goes on
  // to createPhoto, which brings it back: the uploader wants the photo they just sent.
  if (duplicateOf && duplicateOf.trashed_at === null) return { id: duplicateOf.id, status: duplicateOf.status, name, isDuplicate: true };
  // Copied out before createPhoto, which may move the file into storage.
  const motionClip = probe ? null : await extractMotionClip(file.tempPath, type as ImageType, name);
  let photo: Awaited<ReturnType<typeof createPhoto>>;
  try {
    // createPhoto looks the bytes up again: the same bytes twice in one batch, or from another upload since.
    photo = await createPhoto(db, {
      ownerId: user.id,
      sha256: file.sha256,
      originalName: name,
      type,
      durationMs: probe?.durationMs ?? null,
      size: file.size,
      sourcePath: file.tempPath,
      pairingName,
      liveContentId,
      visibleDecode: smallDecode,
      videoProbe: probe ?? null,
    });
    // A clip that cannot be stored leaves the still a photo of its own, as an unusable one does.
    if (motionClip && !photo.isDuplicate) {
      await keepMotionClip(db, photo.id, motionClip).catch((error: unknown) => getLogger().error({ err: error, photoId: photo.id }, "motion clip not kept"));
    }
  } finally {
    if (motionClip) await rm(motionClip.path, { force: true });
  }
  if (!photo.isDuplicate) getLogger().info({ photoId: photo.id, type, size: file.size, database: getDatabaseKind() }, "photo uploaded");
  return { id: photo.id, status: photo.status, name, isDuplicate: photo.isDuplicate };
}
