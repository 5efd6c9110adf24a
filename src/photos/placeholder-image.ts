import { thumbHashToDataURL } from "thumbhash";

/**
 * The thumbhash (base64) as a tiny PNG data URL, painted behind a photo before it loads. Works on
 * the server (the photo page) and in the browser: the gallery sends only the ~36-character hash and
 * decodes it here after hydration, instead of carrying a ~4 kB PNG per tile in the page. Null for a
 * missing or malformed hash.
 */
export function toPlaceholderUrl(thumbhash: string | null): string | null {
  if (!thumbhash) return null;
  try {
    return thumbHashToDataURL(Uint8Array.from(atob(thumbhash), (character) => character.charCodeAt(0)));
  } catch {
    return null;
  }
}
