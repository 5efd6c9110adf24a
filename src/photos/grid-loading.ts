/**
 * Which of the justified grid's images load at once. The grid is laid out by CSS (flex-wrap, each
 * tile's basis its ratio times the row height, growing in proportion to its ratio; gallery.css), so
 * the server can lay the rows out itself, by the same arithmetic, without measuring anything.
 *
 * - Every tile on a phone's first screen: eager. Lighthouse's LCP is the largest image painted on
 *   that screen, and on album, camera and search pages it was the 5th tile (row 2), which a lazy
 *   image fetched only once layout had run, behind Next.js's scripts (bench:lighthouse, s21).
 * - Of those, the two largest as drawn on Lighthouse's phone: fetched at high priority (one of them
 *   is the LCP; more would only share the phone's bandwidth with it).
 * - A desktop's first screen holds about as many tiles as a phone's (1920 x 1080: three and a half
 *   270 px rows of about 6.9 ratio units; a phone: seven rows of about 3.6), so the same tiles are
 *   its eager ones. Chromium fetches a lazy image within 1250 px of the screen as soon as layout
 *   runs anyway, so this moves those fetches earlier; it adds none.
 * - Everything after: lazy, so the first screen does not share the bandwidth with tiles below it.
 *
 * Client-safe: no imports.
 */
export type TileLoading = "high" | "eager" | "lazy";

interface GridScreen {
  /** The grid's width in CSS pixels: the screen less the page's gutters. */
  width: number;
  /** The screen's height in CSS pixels; the grid is taken to start at its top (see FIRST_SCREEN_PHONE). */
  height: number;
  /** --grid-row-height at that width (gallery.css). */
  rowHeight: number;
  /** --grid-gap at that width. */
  gap: number;
}

/** A row of the grid as drawn: its first tile, how many tiles, and their height once grown. */
interface GridRow {
  start: number;
  count: number;
  height: number;
}

// Lighthouse's phone (Moto G Power, 412 x 823) less 2 x 2.2vw of gutter; a row height of 110 px and
// a gap of 3 px below 40rem. Its rows decide which tiles are fetched at high priority.
export const LIGHTHOUSE_PHONE: GridScreen = { width: 394, height: 823, rowHeight: 110, gap: 3 };
// A large phone (430 x 932) and the grid taken to start at the screen's top, not below the header:
// the most tiles a common phone's first screen holds, so no phone's first screen has a lazy tile.
export const FIRST_SCREEN_PHONE: GridScreen = { width: 411, height: 932, rowHeight: 110, gap: 3 };

/**
 * The rows flex-wrap makes of these ratios on `screen`, as far as needed to fill its height (or all
 * of them). A full row grows until it fills the width, so its height is the width less the gaps over
 * the sum of its ratios; the last row keeps the row height (the grid's filler takes the rest).
 */
export function layOutRows(ratios: readonly number[], screen: GridScreen): GridRow[] {
  const rows: GridRow[] = [];
  let top = 0;
  let start = 0;
  while (start < ratios.length && top < screen.height) {
    let used = 0;
    let count = 0;
    let ratioSum = 0;
    for (let index = start; index < ratios.length; index += 1) {
      const ratio = ratios[index]!;
      const next = used + (count > 0 ? screen.gap : 0) + ratio * screen.rowHeight;
      if (count > 0 && next > screen.width) break;
      used = next;
      count += 1;
      ratioSum += ratio;
    }
    const isLast = start + count === ratios.length;
    // A tile wider than the row alone shrinks to fit it.
    const height = isLast ? Math.min(screen.rowHeight, screen.width / ratioSum) : (screen.width - screen.gap * (count - 1)) / ratioSum;
    rows.push({ start, count, height });
    top += height + screen.gap;
    start += count;
  }
  return rows;
}

/** How many tiles, from the first, share the first row on `screen` (at least one, when there is one). */
export function countFirstRow(ratios: readonly number[], screen: GridScreen): number {
  return layOutRows(ratios, screen)[0]?.count ?? 0;
}

/** How many tiles, from the first, are at least partly on `screen`'s first screen. */
export function countFirstScreen(ratios: readonly number[], screen: GridScreen): number {
  return layOutRows(ratios, screen).reduce((total, row) => total + row.count, 0);
}

/** The indexes of the `howMany` largest tiles (by area as drawn) on `screen`'s first screen; the earlier on a tie. */
export function largestOnFirstScreen(ratios: readonly number[], screen: GridScreen, howMany: number): number[] {
  const areas: { index: number; area: number }[] = [];
  for (const row of layOutRows(ratios, screen)) {
    for (let index = row.start; index < row.start + row.count; index += 1) {
      areas.push({ index, area: ratios[index]! * row.height * row.height });
    }
  }
  return areas
    .sort((a, b) => b.area - a.area || a.index - b.index)
    .slice(0, howMany)
    .map((tile) => tile.index);
}

/** The loading of every tile, in order: see the comment above. */
export function planTileLoading(ratios: readonly number[]): TileLoading[] {
  const high = new Set(largestOnFirstScreen(ratios, LIGHTHOUSE_PHONE, 2));
  const eager = Math.max(countFirstScreen(ratios, FIRST_SCREEN_PHONE), countFirstScreen(ratios, LIGHTHOUSE_PHONE));
  return ratios.map((_ratio, index) => (high.has(index) ? "high" : index < eager ? "eager" : "lazy"));
}
