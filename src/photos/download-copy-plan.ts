import "server-only";
import type { DatabaseHandle } from "@/src/db/client";
import type { PhotoRow, PhotoVariantRow } from "@/src/db/database";
import { readExifBlock } from "@/src/images/exif-block-reader";
import { filterExif } from "@/src/images/exif-filter";
import type { ImageType } from "@/src/images/image-type-detector";
import { MalformedJpegError } from "@/src/images/jpeg-metadata-rewriter";
import { findFirstScan, JpegTailSanitizer, rewriteJpegHead } from "@/src/images/jpeg-stream-rewriter";
import { getLogger } from "@/src/log/logger";
import { getStorage } from "@/src/storage/app-storage";
import { readStoredBytes } from "@/src/storage/read-stored-bytes";
import type { Storage } from "@/src/storage/storage";
import type { DownloadCopyPolicy } from "./download-copy";
import { listVariants } from "./photos.repository";

/**
 * The download copy (src/photos/download-copy.ts) made as a stream whose exact length is known
 * before its first byte, for the share ZIP's Content-Length (docs/image-processing.md, "Download
 * copies", and src/images/jpeg-stream-rewriter.ts):
 *
 * - planning reads only the head of the source (a ranged read, up to the first scan) and computes
 *   the rewritten head; the copy's length is that head plus the rest of the source;
 * - streaming reads the head again, then the rest as a stream, one chunk at a time.
 *
 * The source is the original for a JPEG, else (HEIC, PNG, TIFF…, or a JPEG that does not walk)
 * its largest JPEG variant carrying the original's filtered EXIF, as for the download copy. That
 * EXIF is read from the whole original once (a HEIF keeps it anywhere in its file) and remembered
 * in the plan; plans are remembered per process (storage keys never change their content).
 */
export interface DownloadCopyPlan {
  photoId: string;
  /** The stored object the pixels come from: the original or its largest JPEG variant. */
  sourceKey: string;
  sourceSize: number;
  /** Where the source's first scan starts: the head is everything before it. */
  firstScan: number;
  /** The filtered EXIF the rewritten head carries (null: none). */
  exif: Buffer | null;
  headLength: number;
  /** Exactly how many bytes streamDownloadCopy yields. */
  size: number;
}

const FIRST_HEAD_READ = 128 * 1024;
const MAXIMUM_HEAD = 16 * 1024 * 1024;

async function readRange(storage: Storage, key: string, start: number, end: number): Promise<{ bytes: Buffer; size: number }> {
  const object = await storage.read(key, { start, end });
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(chunk as Buffer);
  return { bytes: Buffer.concat(chunks), size: object.size };
}

/** The source's head up to its first scan, and its size; MalformedJpegError when it is not a JPEG that walks. */
async function readHead(storage: Storage, key: string): Promise<{ head: Buffer; firstScan: number; size: number }> {
  let length = FIRST_HEAD_READ;
  for (;;) {
    const { bytes, size } = await readRange(storage, key, 0, length - 1);
    const firstScan = findFirstScan(bytes);
    if (firstScan !== null) return { head: bytes.subarray(0, firstScan), firstScan, size };
    if (bytes.length >= size || length >= MAXIMUM_HEAD) throw new MalformedJpegError("no image data in the head");
    length *= 4;
  }
}

function planFromHead(photoId: string, sourceKey: string, read: { head: Buffer; firstScan: number; size: number }, exif: Buffer | null): DownloadCopyPlan {
  const { head, firstScan, size } = read;
  const headLength = rewriteJpegHead(head, firstScan, exif).length;
  return { photoId, sourceKey, sourceSize: size, firstScan, exif, headLength, size: headLength + size - firstScan };
}

function levelOf(policy: DownloadCopyPolicy): string {
  return `${policy.keepCameraDetails ?? true ? "camera" : "bare"}${policy.keepLocation ? "+location" : ""}`;
}

// Plans by (original's storage key, metadata level). A plan is a few numbers and a filtered EXIF
// block (about a kilobyte), so 20,000 of them stay within a few tens of MB at worst.
const MAXIMUM_REMEMBERED_PLANS = 20_000;
const rememberedPlans = new Map<string, DownloadCopyPlan>();

function remember(key: string, plan: DownloadCopyPlan): void {
  rememberedPlans.delete(key);
  rememberedPlans.set(key, plan);
  if (rememberedPlans.size > MAXIMUM_REMEMBERED_PLANS) rememberedPlans.delete(rememberedPlans.keys().next().value as string);
}

/** Forgets every remembered plan (tests and benchmarks that measure a first download). */
export function forgetDownloadCopyPlans(): void {
  rememberedPlans.clear();
}

/** The largest JPEG variant of each photo, by photo id. */
async function largestJpegVariants(db: DatabaseHandle, photoIds: string[]): Promise<Map<string, PhotoVariantRow>> {
  const largest = new Map<string, PhotoVariantRow>();
  for (let start = 0; start < photoIds.length; start += 500) {
    for (const variant of await listVariants(db, photoIds.slice(start, start + 500))) {
      if (variant.format === "jpeg") largest.set(variant.photo_id, variant); // ordered by width: the last is the largest
    }
  }
  return largest;
}

/**
 * Plans the download copies of these photos under one policy, in their order. A photo with no copy
 * to give (a non-JPEG still without a JPEG variant) is left out. Plans are made a few at a time.
 */
export async function planDownloadCopies(db: DatabaseHandle, photos: PhotoRow[], policy: DownloadCopyPolicy): Promise<DownloadCopyPlan[]> {
  const level = levelOf(policy);
  const exifOptions = { keepLocation: policy.keepLocation, keepCameraDetails: policy.keepCameraDetails ?? true };
  const needVariants = photos.filter((photo) => photo.original_type !== "jpeg" || rememberedPlans.get(`${photo.original_key}|${level}`)?.sourceKey !== photo.original_key);
  const variants = await largestJpegVariants(db, needVariants.map((photo) => photo.id));

  const planOne = async (photo: PhotoRow): Promise<DownloadCopyPlan | null> => {
    const cacheKey = `${photo.original_key}|${level}`;
    const variant = variants.get(photo.id);
    const remembered = rememberedPlans.get(cacheKey);
    if (remembered && (remembered.sourceKey === photo.original_key || remembered.sourceKey === variant?.storage_key)) {
      remember(cacheKey, remembered);
      return { ...remembered, photoId: photo.id };
    }
    if (photo.original_type === "jpeg") {
      try {
        const read = await readHead(getStorage(), photo.original_key);
        const exif = readExifBlock(read.head, "jpeg");
        const plan = planFromHead(photo.id, photo.original_key, read, exif && filterExif(exif, { ...exifOptions, keepOrientation: true, keepPixelDimensions: true }));
        remember(cacheKey, plan);
        return plan;
      } catch (error) {
        if (!(error instanceof MalformedJpegError)) throw error;
        getLogger().warn({ err: error, photoId: photo.id }, "original JPEG could not be walked; the download copy is its largest variant");
      }
    }
    const fallback = variant ?? (await largestJpegVariants(db, [photo.id])).get(photo.id);
    if (!fallback) return null;
    // A video's original is never read whole into memory: it has no EXIF block; its copy is its poster's JPEG.
    const exif = photo.media_kind === "video" ? null : readExifBlock(await readStoredBytes(getStorage(), photo.original_key), photo.original_type as ImageType);
    const read = await readHead(getStorage(), fallback.storage_key);
    const plan = planFromHead(photo.id, fallback.storage_key, read, exif && filterExif(exif, { ...exifOptions, keepOrientation: false, keepPixelDimensions: false }));
    remember(cacheKey, plan);
    return plan;
  };

  // A few at a time: on S3 each head is a round trip; on disk it costs little either way.
  const plans: Array<DownloadCopyPlan | null> = new Array(photos.length).fill(null);
  let next = 0;
  const worker = async () => {
    while (next < photos.length) {
      const index = next++;
      plans[index] = await planOne(photos[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, photos.length) }, worker));
  return plans.filter((plan): plan is DownloadCopyPlan => plan !== null);
}

/** The source changed since it was planned: the copy cannot have the promised length. */
export class DownloadCopyChangedError extends Error {}

/**
 * The copy's bytes, exactly `plan.size` of them (else it throws rather than yield a different
 * length). Reads one chunk at a time; when `signal` aborts, the storage stream is destroyed.
 */
export async function* streamDownloadCopy(plan: DownloadCopyPlan, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  const storage = getStorage();
  signal?.throwIfAborted();
  const { bytes: head, size } = await readRange(storage, plan.sourceKey, 0, plan.firstScan - 1);
  if (size !== plan.sourceSize || head.length !== plan.firstScan) throw new DownloadCopyChangedError(`${plan.sourceKey} changed since it was planned`);
  const rewritten = rewriteJpegHead(head, plan.firstScan, plan.exif);
  if (rewritten.length !== plan.headLength) throw new DownloadCopyChangedError(`${plan.sourceKey}'s head changed since it was planned`);
  yield new Uint8Array(rewritten.buffer, rewritten.byteOffset, rewritten.length);

  signal?.throwIfAborted();
  const tail = await storage.read(plan.sourceKey, { start: plan.firstScan, end: plan.sourceSize - 1 });
  const stopReading = () => tail.body.destroy(new Error("download aborted"));
  signal?.addEventListener("abort", stopReading, { once: true });
  const sanitizer = new JpegTailSanitizer();
  let sent = rewritten.length;
  try {
    for await (const chunk of tail.body) {
      const out = sanitizer.push(chunk as Buffer);
      sent += out.length;
      yield out;
    }
  } finally {
    signal?.removeEventListener("abort", stopReading);
    tail.body.destroy();
  }
  if (sent !== plan.size) throw new DownloadCopyChangedError(`${plan.sourceKey} gave ${sent} bytes, not the ${plan.size} planned`);
}
