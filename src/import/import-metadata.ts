// What the importer learns about one file from beside it (an XMP sidecar, a Google Takeout JSON) or
// from inside it (embedded XMP/IPTC), before it is applied to the uploaded photo through the same
// API the photo editor uses. Every field is optional: a source names only what it knows, and the
// importer merges sources field by field (a sidecar wins over the file's own metadata, as in
// Lightroom). Readers (src/import/*) return this; the command (src/cli) applies it.
import type { ExportPhoto } from "@/src/export/export-api.schemas";

/** Lightroom's and digiKam's colour labels, the names XMP writes in `xmp:Label`. */
export const COLOUR_LABELS = ["red", "yellow", "green", "blue", "purple"] as const;
export type ColourLabel = (typeof COLOUR_LABELS)[number];

export interface ImportMetadata {
  title?: string;
  /** The caption (XMP `dc:description`, Takeout `description`). */
  description?: string;
  /** Keywords and Lightroom's hierarchical subjects ("Places|Italy|Rome" gives its leaf, "Rome"). */
  tags?: string[];
  /**
   * `tags` is the photo's whole list, not keywords to add (an export's own sidecar): the importer
   * sets it as it is, and the site then never adds the file's embedded keywords on top.
   */
  tagsComplete?: boolean;
  /** 0–5 stars; XMP's -1 ("rejected") is not a rating and is left out. */
  rating?: number;
  label?: ColourLabel;
  /** As `normaliseTakenAt` (src/photos/taken-at-input.ts) stores it: local time, offset when known. */
  takenAt?: string;
  location?: { latitude: number; longitude: number };
  /** EXIF orientation 1–8, when a sidecar overrides the file's own. */
  orientation?: number;
  /** Google Photos' favourite; the importer gives it as a tag the owner can find. */
  favourite?: boolean;
  /** The fields only a Contact Sheet export's own sidecar carries (src/import/contact-sheet-sidecar.ts). */
  altText?: string;
  visibility?: ExportPhoto["visibility"];
  showLocation?: boolean;
  /** null: the site's setting decides. */
  allowDownload?: boolean | null;
  /** Degrees clockwise the owner turned the photo by on the exporting site (on top of the file's own orientation). */
  rotation?: number;
  /** The place in words, as the exporting site had it (set with the location, so the new site need not work it out again). */
  place?: { city: string | null; region: string | null; countryCode: string | null };
}
