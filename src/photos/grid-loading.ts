/**
 * Which of the justified grid's images load at once. The grid is laid out by CSS (flex-wrap, each
 * tile's basis its ratio times the row height, gallery.css), so the server can tell which tiles
 * make up the first row on a given screen by adding up the same bases, without measuring anything.
 *
 * - The first row on a phone holds the largest image a phone paints first (Lighthouse's LCP): eager
 *   and fetched at high priority.
 * - The rest of the first row on a large screen: eager, at the browser's usual priority.
 * - Everything after: lazy, so the first row does not share the phone's bandwidth with tiles below the fold.
 *
 * Client-safe: no imports.
 */
export type TileLoading = "high" | "eager" | "lazy";

interface GridScreen {
  /** The grid's width in CSS pixels: the screen less the page's gutters. */
  width: number;
  /** --grid-row-height at that width (gallery.css). */
  rowHeight: number;
  /** --grid-gap at that width. */
  gap: number;
}

// A large phone (430 px, Lighthouse's is 412) less 2 x 2.2vw of gutter; a row height of 110 px
// and a gap of 3 px below 40rem. The wider the phone, the more tiles its first row holds, so
// this errs towards one tile too many at high priority rather than the LCP image too few.
export const PHONE_SCREEN: GridScreen = { width: 411, rowHeight: 110, gap: 3 };
// A 1920 px screen less 2 x 2rem of gutter, 270 px rows above 100rem: the widest first row that
// is common. Smaller screens' first rows are a prefix of it.
export const WIDE_SCREEN: GridScreen = { width: 1856, rowHeight: 270, gap: 4 };

/** How many tiles, from the first, share the first row on `screen` (at least one, when there is one). */
export function countFirstRow(ratios: readonly number[], screen: GridScreen): number {
  let used = 0;
  let count = 0;
  for (const ratio of ratios) {
    const next = used + (count > 0 ? screen.gap : 0) + ratio * screen.rowHeight;
    if (count > 0 && next > screen.width) break;
    used = next;
    count += 1;
  }
  return count;
}

/** The loading of every tile, in order: see the comment above. */
export function planTileLoading(ratios: readonly number[]): TileLoading[] {
  const high = countFirstRow(ratios, PHONE_SCREEN);
  const eager = Math.max(high, countFirstRow(ratios, WIDE_SCREEN));
  return ratios.map((_ratio, index) => (index < high ? "high" : index < eager ? "eager" : "lazy"));
}
