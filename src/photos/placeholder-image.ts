import { thumbHashToDataURL } from "thumbhash";

/** The thumbhash as a tiny PNG data URL, painted as the tile's background before the image loads. */
export function toPlaceholderUrl(thumbhash: string | null): string | null {
  if (!thumbhash) return null;
  try {
    return thumbHashToDataURL(Buffer.from(thumbhash, "base64"));
  } catch {
    return null;
  }
}
