// Where browse pages live, for pages and links (client-safe: no database, no server-only imports).

export type BrowseKind = "camera" | "lens" | "year";

const ROOTS: Record<BrowseKind, string> = { camera: "/cameras", lens: "/lenses", year: "/years" };

/** The earliest and latest year a /years/[year] page may name; anything else is a 404 without asking the database. */
export const FIRST_BROWSE_YEAR = 1800;
export const LAST_BROWSE_YEAR = 2999;

/**
 * The key of /years' entry for photos whose date taken is unknown (no EXIF date, none set by
 * hand): they are listed there, not under the year they were uploaded.
 */
export const UNKNOWN_YEAR_KEY = "unknown";
export const UNKNOWN_YEAR_NAME = "Date unknown";

/** /cameras, /lenses or /years. */
export function browseRoot(kind: BrowseKind): string {
  return ROOTS[kind];
}

/** /cameras/canon-eos-40d, /lenses/…, /years/2019. */
export function browsePath(kind: BrowseKind, key: string): string {
  return `${ROOTS[kind]}/${encodeURIComponent(key)}`;
}

/** The year four digits name, within the years a page may show; null otherwise ("abcd", "99999", "0042"). */
export function parseBrowseYear(segment: string): number | null {
  if (!/^\d{4}$/.test(segment)) return null;
  const year = Number(segment);
  return year >= FIRST_BROWSE_YEAR && year <= LAST_BROWSE_YEAR ? year : null;
}

/** The year of a date as the photo page shows it ("2019-05-03T14:32:00"): its first four digits, when /years can show it. */
export function yearOfDate(date: string | null): number | null {
  return date ? parseBrowseYear(date.slice(0, 4)) : null;
}
