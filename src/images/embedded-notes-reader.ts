import exifr from "exifr";

// The photographer's star rating and colour label as Lightroom, Bridge, digiKam and darktable write
// them into the file itself (XMP's xmp:Rating and xmp:Label), read when the photo is processed, like
// its date: a default the owner's own choice always wins over (src/photos keeps that rule in its
// UPDATE). Read from the XMP packet alone, with the namespaces kept apart: merged, exifr lets
// Windows' MicrosoftPhoto:Rating (a percentage, 50 for three stars) overwrite xmp:Rating.

export interface EmbeddedNotes {
  /** 1–5 stars; 0 (none) and -1 (Lightroom's "rejected") are no rating. */
  rating: number | null;
  /** The label as written, lower-cased ("red" for Lightroom's "Red"); the caller keeps only its known labels. */
  label: string | null;
}

const XMP_ONLY = {
  tiff: false,
  exif: false,
  gps: false,
  ifd1: false,
  interop: false,
  makerNote: false,
  userComment: false,
  xmp: true,
  iptc: false,
  icc: false,
  jfif: false,
  ihdr: false,
  // One packet: the extended XMP segments of a JPEG hold no rating and may be large.
  multiSegment: false,
  mergeOutput: false,
  reviveValues: false,
  translateValues: false,
};

/** The file's own rating and label, or null when it has neither (or no readable XMP). Never throws. */
export async function readEmbeddedNotes(input: string | Uint8Array): Promise<EmbeddedNotes | null> {
  let xmp: Record<string, unknown> | undefined;
  try {
    const parsed = (await exifr.parse(input as string, XMP_ONLY)) as { xmp?: unknown } | undefined;
    xmp = typeof parsed?.xmp === "object" && parsed.xmp !== null ? (parsed.xmp as Record<string, unknown>) : undefined;
  } catch {
    return null;
  }
  if (!xmp) return null;
  const stars = Number(xmp.Rating);
  const rating = Number.isInteger(stars) && stars >= 1 && stars <= 5 ? stars : null;
  const label = typeof xmp.Label === "string" && /^[\p{L} ]{1,20}$/u.test(xmp.Label.trim()) ? xmp.Label.trim().toLowerCase() : null;
  return rating === null && label === null ? null : { rating, label };
}
