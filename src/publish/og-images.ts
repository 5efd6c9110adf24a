import "server-only";
import { createHash } from "node:crypto";
import type { DatabaseHandle } from "@/src/db/client";
import type { PhotoVariantRow } from "@/src/db/database";
import { planVariantWidths } from "@/src/images/variant-plan";
import { openGraphImagePrefix } from "@/src/photos/photo-files";
import { getLogger } from "@/src/log/logger";
import { getStorage } from "@/src/storage/app-storage";
import { readStoredBytes } from "@/src/storage/read-stored-bytes";
import { LATEST_SITE_OG_IMAGE_PATH } from "./site-og-image";
import { collageRects, neededSize, OG_DESIGN_VERSION, OG_HEIGHT, OG_WIDTH, renderOgImage } from "./og-image-render";
import {
  findPublicAlbumById,
  findPublicPhoto,
  findTag,
  listNewestPublicPhotos,
  listPublicAlbumPhotos,
  listPublicTagPhotos,
  type PublicPhoto,
} from "./published-subjects";
import { processSingleton } from "@/src/config/process-singleton";

// An Open Graph image is made once, on its first request, and kept in storage (local disk or S3)
// under a key named by a hash of everything it shows: the design's version and, for each photo in
// it, the photo's id, its publication key, the JPEG variant drawn and its dominant colour. The same
// hash is in the image's URL, so the URL is content-addressed (cached for a year, immutable) and
// any change to what it shows gives a new URL: a photo made private gets a new publication key,
// drops out of every collage and its own image's URL answers 404 from the next request on. Nothing
// is rendered per request once stored, and nothing is rendered for what is not public.
//
// The site's collage is the one exception: pages name it at LATEST_SITE_OG_IMAGE_PATH, which answers
// its current image (stored the same way) and may be cached only as briefly as the gallery page.

export type OgSubject = { kind: "photo"; id: string } | { kind: "album"; id: string } | { kind: "tag"; id: string } | { kind: "site" };

export interface OgImagePlan {
  /** Absolute path on this site: /og/<kind>/<id>/<hash>.jpg. */
  path: string;
  storageKey: string;
  hash: string;
  width: number;
  height: number;
  sources: Array<{ photoId: string; variant: PhotoVariantRow; dominantColor: string | null }>;
}

const SUBJECT_KINDS = new Set(["photo", "album", "tag", "site"]);
const ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const FILE_PATTERN = /^([0-9a-f]{32})\.jpg$/;
const SITE_ID = "home";

/**
 * The smallest JPEG variant big enough for its place in the frame, never the original; or the
 * largest there is once processing has made every size. Null while a photo only has its first, small
 * variants (processing makes the larger ones seconds later): its image waits for them rather than
 * being made blurry once and replaced under a new address.
 */
function chooseVariant(photo: PublicPhoto, place: { width: number; height: number }): PhotoVariantRow | null {
  const { jpegs, row } = photo;
  const largest = jpegs[jpegs.length - 1];
  const needed = neededSize(place, largest.width / largest.height);
  const covering = jpegs.find((variant) => variant.width >= needed.width && variant.height >= needed.height);
  if (covering) return covering;
  const finalWidth = row.width ? Math.max(...planVariantWidths(row.width)) : Number.POSITIVE_INFINITY;
  return largest.width >= finalWidth ? largest : null;
}

/** The photos that can be drawn, each with its variant, laid out for how many they are. */
function chooseSources(photos: PublicPhoto[]): Array<{ photo: PublicPhoto; variant: PhotoVariantRow }> {
  let candidates = photos;
  for (;;) {
    const shown = candidates.slice(0, collageRects(candidates.length).length);
    const rects = collageRects(shown.length);
    const chosen = shown.map((photo, index) => ({ photo, variant: chooseVariant(photo, rects[index]) }));
    const drawable = chosen.filter((each): each is { photo: PublicPhoto; variant: PhotoVariantRow } => each.variant !== null);
    if (drawable.length === chosen.length) return drawable;
    // Leave out the photos that cannot be drawn yet, and let the next candidates take their place.
    const undrawable = new Set(chosen.filter((each) => each.variant === null).map((each) => each.photo));
    candidates = candidates.filter((photo) => !undrawable.has(photo));
  }
}

/** The image of these public photos (already read with the public access rule) for this subject. */
export function planOgImageOf(subject: OgSubject, photos: PublicPhoto[]): OgImagePlan | null {
  const chosen = chooseSources(photos);
  if (chosen.length === 0) return null;
  const sources = chosen.map(({ photo, variant }) => ({
    photoId: photo.row.id,
    publicationKey: photo.row.publication_key,
    variant,
    dominantColor: photo.row.dominant_color,
  }));
  const hash = createHash("sha256")
    .update(JSON.stringify([OG_DESIGN_VERSION, subject.kind, sources.map((each) => [each.photoId, each.publicationKey, each.variant.storage_key, each.dominantColor])]))
    .digest("hex")
    .slice(0, 32);
  const id = subject.kind === "site" ? SITE_ID : subject.id;
  // A photo's own image lives where deleting the photo removes it (src/photos/photo-files.ts).
  const folder = subject.kind === "photo" ? openGraphImagePrefix(subject.id) : `og/${subject.kind}/${id}/`;
  return {
    path: `/og/${subject.kind}/${id}/${hash}.jpg`,
    storageKey: `${folder}${hash}.jpg`,
    hash,
    width: OG_WIDTH,
    height: OG_HEIGHT,
    sources: sources.map(({ photoId, variant, dominantColor }) => ({ photoId, variant, dominantColor })),
  };
}

/** The photos a subject's image shows, read with the public access rule only; none when it is not public. */
async function publicPhotosOf(db: DatabaseHandle, subject: OgSubject): Promise<PublicPhoto[]> {
  switch (subject.kind) {
    case "photo": {
      const photo = await findPublicPhoto(db, subject.id);
      return photo ? [photo] : [];
    }
    case "album": {
      const album = await findPublicAlbumById(db, subject.id);
      return album ? listPublicAlbumPhotos(db, album) : [];
    }
    case "tag": {
      const tag = await findTag(db, { id: subject.id });
      return tag ? listPublicTagPhotos(db, tag.id) : [];
    }
    case "site":
      return listNewestPublicPhotos(db);
  }
}

/** The subject's image as it is now (its URL and what it shows), or null when it has none: not public, or no public photo to show. */
export async function planOgImage(db: DatabaseHandle, subject: OgSubject): Promise<OgImagePlan | null> {
  return planOgImageOf(subject, await publicPhotosOf(db, subject));
}

/** The subject and hash an /og/ path names (null: the current one), or null for a path this site never hands out. */
export function parseOgPath(segments: string[]): { subject: OgSubject; hash: string | null } | null {
  if (segments.length !== 3) return null;
  const [kind, id, file] = segments;
  if (`/og/${segments.join("/")}` === LATEST_SITE_OG_IMAGE_PATH) return { subject: { kind: "site" }, hash: null };
  const hash = FILE_PATTERN.exec(file)?.[1];
  if (!hash || !SUBJECT_KINDS.has(kind)) return null;
  if (kind === "site") return id === SITE_ID ? { subject: { kind: "site" }, hash } : null;
  if (!ID_PATTERN.test(id)) return null;
  return { subject: { kind: kind as "photo" | "album" | "tag", id }, hash };
}

export interface OgImageAnswer {
  bytes: Buffer;
  hash: string;
  /** True when this request made it; false when it came from storage. */
  rendered: boolean;
  /** True when the path names its content (a hash), false for the site's latest collage. */
  immutable: boolean;
}

// One render per image at a time in this process: a burst of first requests waits for the same one.
function rendersInFlight(): Map<string, Promise<Buffer>> {
  return processSingleton("og-image-renders", () => new Map<string, Promise<Buffer>>());
}

async function render(plan: OgImagePlan): Promise<Buffer> {
  const storage = getStorage();
  const started = performance.now();
  const tiles = await Promise.all(
    plan.sources.map(async (source) => ({
      jpeg: await readStoredBytes(storage, source.variant.storage_key),
      width: source.variant.width,
      height: source.variant.height,
      dominantColor: source.dominantColor,
    })),
  );
  const bytes = await renderOgImage(tiles);
  await storage.putBytes(plan.storageKey, bytes, { contentType: "image/jpeg" });
  await removeOlderImages(plan.storageKey);
  getLogger().info({ key: plan.storageKey, photos: plan.sources.length, ms: Math.round(performance.now() - started) }, "made an Open Graph image");
  return bytes;
}

/**
 * Drops the subject's earlier images (of photos since changed, or no longer public): one stored
 * image per subject. Best effort: one left behind is never served (its hash is not current).
 */
async function removeOlderImages(storageKey: string): Promise<void> {
  const storage = getStorage();
  const prefix = storageKey.slice(0, storageKey.lastIndexOf("/") + 1);
  try {
    for await (const { key } of storage.list(prefix)) if (key !== storageKey) await storage.delete(key);
  } catch (error) {
    getLogger().warn({ err: error, prefix }, "could not remove earlier Open Graph images");
  }
}

/**
 * The bytes at /og/<path>, or null (a 404) when the path names nothing public, or an image of
 * something as it no longer is (the hash is not the subject's current one). Made on first request
 * and stored; later requests, on any instance sharing the storage, read it back.
 */
export async function findOgImage(db: DatabaseHandle, segments: string[]): Promise<OgImageAnswer | null> {
  const parsed = parseOgPath(segments);
  if (!parsed) return null;
  const plan = await planOgImage(db, parsed.subject);
  if (!plan || (parsed.hash !== null && plan.hash !== parsed.hash)) return null;
  const immutable = parsed.hash !== null;
  const storage = getStorage();
  if (await storage.stat(plan.storageKey)) return { bytes: await readStoredBytes(storage, plan.storageKey), hash: plan.hash, rendered: false, immutable };
  const inFlight = rendersInFlight();
  let rendering = inFlight.get(plan.storageKey);
  const mine = !rendering;
  if (!rendering) {
    rendering = render(plan).finally(() => inFlight.delete(plan.storageKey));
    inFlight.set(plan.storageKey, rendering);
  }
  return { bytes: await rendering, hash: plan.hash, rendered: mine, immutable };
}
