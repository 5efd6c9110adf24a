import "server-only";
import { getLogger } from "@/src/log/logger";
import { getStorage } from "@/src/storage/app-storage";

/** Where every original is stored: `originals/<first two characters of the id>/<photo id>`. */
export const ORIGINALS_PREFIX = "originals/";
const ORIGINAL_KEY = /^originals\/[0-9a-f]{2}\/([0-9a-f-]{36})$/;

export function originalKey(photoId: string): string {
  return `${ORIGINALS_PREFIX}${photoId.slice(0, 2)}/${photoId}`;
}

/** The photo id an original's key names, or null for a key not in that format. */
export function photoIdOfOriginalKey(key: string): string | null {
  return ORIGINAL_KEY.exec(key)?.[1] ?? null;
}

/** Where every variant is stored: `variants/<first two characters of the id>/<photo id>/<file>`. */
export const VARIANTS_PREFIX = "variants/";
const VARIANT_KEY = /^variants\/[0-9a-f]{2}\/([0-9a-f-]{36})\/[^/]+$/;

/** Every variant of a photo is stored under this prefix, so all of them can be found without the database. */
export function variantPrefix(photoId: string): string {
  return `${VARIANTS_PREFIX}${photoId.slice(0, 2)}/${photoId}/`;
}

/** The photo id a variant's key names, or null for a key not in that format. */
export function photoIdOfVariantKey(key: string): string | null {
  return VARIANT_KEY.exec(key)?.[1] ?? null;
}

/**
 * Where the files that belong to a photo besides its original are stored (the RAW of a RAW+JPEG
 * pair, a motion photo's clip): `companions/<first two characters of the id>/<photo id>/<file>`,
 * so they are found, deleted and judged orphans by the photo's id like its variants.
 */
export const COMPANIONS_PREFIX = "companions/";
const COMPANION_KEY = /^companions\/[0-9a-f]{2}\/([0-9a-f-]{36})\/[^/]+$/;

export function companionPrefix(photoId: string): string {
  return `${COMPANIONS_PREFIX}${photoId.slice(0, 2)}/${photoId}/`;
}

/** The photo id a companion file's key names, or null for a key not in that format. */
export function photoIdOfCompanionKey(key: string): string | null {
  return COMPANION_KEY.exec(key)?.[1] ?? null;
}

/** The photo's own Open Graph image is kept under this prefix (src/publish/og-images.ts makes it). */
export function openGraphImagePrefix(photoId: string): string {
  return `og/photo/${photoId}/`;
}

/**
 * Deletes a photo's stored files: the original, its companions, its Open Graph image and everything under its variant prefix, including
 * a variant a worker stored after the row was gone, and answers the variants' keys. A file that
 * cannot be deleted is only bytes nobody can reach; it is logged for collection.
 */
export async function deletePhotoFiles(photo: { id: string; original_key: string }): Promise<string[]> {
  const storage = getStorage();
  const variantKeys: string[] = [];
  try {
    for await (const object of storage.list(variantPrefix(photo.id))) variantKeys.push(object.key);
  } catch (error) {
    getLogger().warn({ err: error, photoId: photo.id }, "could not list a deleted photo's variants");
  }
  const derivedKeys: string[] = [];
  try {
    for await (const object of storage.list(openGraphImagePrefix(photo.id))) derivedKeys.push(object.key);
  } catch (error) {
    getLogger().warn({ err: error, photoId: photo.id }, "could not list a deleted photo's Open Graph image");
  }
  try {
    for await (const object of storage.list(companionPrefix(photo.id))) derivedKeys.push(object.key);
  } catch (error) {
    getLogger().warn({ err: error, photoId: photo.id }, "could not list a deleted photo's companion files");
  }
  for (const key of [photo.original_key, ...variantKeys, ...derivedKeys]) {
    await storage.delete(key).catch((error: unknown) => getLogger().warn({ err: error, key }, "could not delete a stored file"));
  }
  return variantKeys;
}
