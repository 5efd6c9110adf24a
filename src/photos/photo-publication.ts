import { randomBytes } from "node:crypto";

/**
 * Variant URLs are `/media/<publication key>/<storage key>`. The storage key names the content, so
 * a public variant can be cached for a year; the publication key is replaced whenever the photo
 * stops being public, so every URL a browser or CDN may have cached dies at once and is never
 * handed out again, even if the photo becomes public later.
 */
export function newPublicationKey(): string {
  // 96 bits: an old URL cannot be guessed back into life.
  return randomBytes(12).toString("base64url");
}

const PUBLICATION_KEY = /^[A-Za-z0-9_-]{16}$/;

/** The URL a variant is served at. */
export function toMediaUrl(publicationKey: string, storageKey: string): string {
  return `/media/${publicationKey}/${storageKey}`;
}

/** The two halves of a media path (what follows `/media/`), or null when it has no publication key. */
export function parseMediaPath(mediaPath: string): { publicationKey: string; storageKey: string } | null {
  const slash = mediaPath.indexOf("/");
  const publicationKey = mediaPath.slice(0, slash);
  if (slash < 0 || !PUBLICATION_KEY.test(publicationKey)) return null;
  return { publicationKey, storageKey: mediaPath.slice(slash + 1) };
}
