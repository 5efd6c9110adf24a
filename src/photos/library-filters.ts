import { z } from "zod";
import { MAXIMUM_RATING, PHOTO_LABELS, VISIBILITIES } from "@/src/db/database";

// The library's filters, in one place for the API's schema, the page's query string and the filter
// bar (client-safe: no database here; library.repository.ts turns each into SQL).
//
// A new filter is one entry in `libraryFilterSchema` below, one case in `applyLibraryFilter`
// (library.repository.ts) and one entry in LIBRARY_FILTER_CONTROLS (components/library/library-filter-bar.tsx).

/** "1"/"true" from a query string, or a real boolean from a JSON body. */
const flag = z.union([z.boolean(), z.enum(["1", "true", "0", "false"]).transform((value) => value === "1" || value === "true")]);

export const libraryFilterSchema = z.strictObject({
  status: z.enum(["processing", "ready", "failed"]).optional(),
  visibility: z.enum(VISIBILITIES).optional(),
  /** Photos whose alt text is still empty. */
  missingAltText: flag.optional(),
  /** The camera's URL name, as in /cameras/[slug] (one name however its maker spelled it in EXIF). */
  camera: z.string().trim().min(1).max(200).optional(),
  /** Photos in this album (its id). */
  album: z.string().trim().min(1).max(100).optional(),
  /** Photos with this tag (its key: NFC, case-folded, as /api/tags answers it). */
  tag: z.string().trim().min(1).max(200).optional(),
  /** Photos in no album at all. */
  inNoAlbum: flag.optional(),
  /** Photos with at least this many stars (the owner's rating; the library is the owner's or an admin's). */
  minRating: z.coerce.number().int().min(1).max(MAXIMUM_RATING).optional(),
  /** Photos with this colour label, or none. */
  label: z.enum([...PHOTO_LABELS, "none"]).optional(),
});

export type LibraryFilter = z.output<typeof libraryFilterSchema>;

/** The filter's fields that are set, for a query string or a link (empty ones left out). */
export function libraryFilterToSearchParams(filter: LibraryFilter): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined || value === false || value === "") continue;
    params.set(key, value === true ? "1" : String(value));
  }
  return params;
}

/** Reads a page's search params into a filter, ignoring anything that is not valid. */
export function parseLibraryFilter(searchParams: Record<string, string | string[] | undefined>): LibraryFilter {
  const filter: Record<string, unknown> = {};
  for (const key of Object.keys(libraryFilterSchema.shape)) {
    const value = searchParams[key];
    if (typeof value === "string" && value !== "") filter[key] = value;
  }
  const parsed = libraryFilterSchema.safeParse(filter);
  return parsed.success ? parsed.data : {};
}
