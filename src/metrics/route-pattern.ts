/** The label of a request whose params could not be placed in its path: one label, not the URL. */
export const UNMATCHED_ROUTE = "(unmatched)";

type RouteParams = Record<string, string | string[] | undefined>;

/**
 * The route's pattern for a metric label (`/api/photos/[id]`), never the URL itself: a label per
 * photo id would grow without bound and swamp Prometheus. Next.js tells a route handler its
 * params, not its file, so the pattern is the path with each param's value put back as its name:
 * a single segment becomes `[name]`, a catch-all's segments become one `[...name]`. A URL that
 * carries a query, odd encodings or trailing slashes gives the same pattern as its plain form; a
 * param whose value cannot be found in the path gives {@link UNMATCHED_ROUTE}, never the path.
 */
export function routePattern(pathname: string, params: RouteParams | undefined): string {
  const segments = pathname.split("/").filter((segment) => segment !== "").map(decodeSegment);
  const names: (string | null)[] = segments.map(() => null);
  // A route without dynamic segments gets no params object at all.
  for (const [name, value] of Object.entries(params ?? {})) {
    if (Array.isArray(value)) {
      if (!markCatchAll(segments, names, name, value)) return UNMATCHED_ROUTE;
    } else if (value !== undefined) {
      const index = segments.findIndex((segment, position) => names[position] === null && segment === value);
      if (index < 0) return UNMATCHED_ROUTE;
      names[index] = `[${name}]`;
    }
  }
  const pattern: string[] = [];
  names.forEach((name, index) => {
    if (name === "") return;
    pattern.push(name ?? segments[index]);
  });
  return `/${pattern.join("/")}`;
}

/** A catch-all's values are the path's last segments in order: the first becomes `[...name]`, the rest vanish. */
function markCatchAll(segments: string[], names: (string | null)[], name: string, values: string[]): boolean {
  // An optional catch-all with nothing caught adds no segment.
  if (values.length === 0) return true;
  if (values.length > segments.length) return false;
  const start = segments.length - values.length;
  if (!values.every((value, offset) => segments[start + offset] === value)) return false;
  names[start] = `[...${name}]`;
  for (let index = start + 1; index < segments.length; index += 1) names[index] = "";
  return true;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
