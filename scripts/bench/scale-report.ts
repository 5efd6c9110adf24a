// bench:scale – the table a reader needs: per path, the two sizes side by side, their ratio, the
// longest event-loop block at 100k and whether the issue's targets are met.

export const RATIO_TARGET = 0.8;
export const LOOP_TARGET_MS = 20;
export const PLAIN_NODE_TARGET = 0.5;

export interface SideFigures {
  requestsPerSecond: number;
  p99Ms: number;
}

export interface Row {
  name: string;
  viewer: string;
  small: SideFigures;
  large: SideFigures;
  /**
   * The longest event-loop block of each server while it answered one request at a time, small size first. The
   * target is on the large one; the small one tells a block that comes with size from one that
   * happens at any size (rendering, garbage collection).
   */
  loopMaxMs: [number, number];
  /** The longest garbage-collection pause in the same two seconds: when it is near the block, the collector made it. */
  gcMaxMs: [number, number];
  failures: string[];
}

export interface Baseline {
  plain: SideFigures;
  /** The app's anonymous / at 100k. */
  app: SideFigures;
}

export const formatSize = (size: number) => (size >= 1000 ? `${size / 1000}k` : String(size));
export const formatRate = (value: number) => value.toFixed(value < 10 ? 1 : 0);
export const formatMs = (value: number) => `${value.toFixed(0)} ms`;
// Two significant digits below 0.1, so a ratio of 0.003 does not print as 0.00.
export const formatRatio = (value: number) => `${value < 0.1 ? value.toPrecision(2) : value.toFixed(2)}x`;

/** Columns padded to their widest cell: the first two left-aligned (names), the rest right-aligned (figures). */
export function pad(cells: string[][]): string[] {
  const widths = cells[0].map((_, column) => Math.max(...cells.map((row) => row[column].length)));
  return cells.map((row) => row.map((cell, column) => (column < 2 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join(" | "));
}

/** "12 ms", or "32 ms (GC 30)" when the longest collector pause was over half the target. */
function formatBlock(row: Row, side: 0 | 1): string {
  const block = `${row.loopMaxMs[side].toFixed(0)} ms`;
  return row.gcMaxMs[side] > LOOP_TARGET_MS / 2 ? `${block} (GC ${row.gcMaxMs[side].toFixed(0)})` : block;
}

export function isRowMet(row: Row): boolean {
  return row.failures.length === 0 && row.large.requestsPerSecond / row.small.requestsPerSecond >= RATIO_TARGET && row.loopMaxMs[1] <= LOOP_TARGET_MS;
}

export function isBaselineMet(baseline: Baseline): boolean {
  return baseline.app.requestsPerSecond / baseline.plain.requestsPerSecond >= PLAIN_NODE_TARGET;
}

export function formatTable(title: string, sizes: [number, number], rows: Row[], baseline: Baseline): string {
  const [small, large] = sizes.map(formatSize);
  const header = ["path", "viewer", `${small} req/s`, `${small} p99`, `${large} req/s`, `${large} p99`, `${large}/${small}`, `one blocks ${small}`, `one blocks ${large}`, "target"];
  const cells = [header];
  for (const row of rows) {
    cells.push([
      row.name,
      row.viewer,
      formatRate(row.small.requestsPerSecond),
      formatMs(row.small.p99Ms),
      formatRate(row.large.requestsPerSecond),
      formatMs(row.large.p99Ms),
      formatRatio(row.large.requestsPerSecond / row.small.requestsPerSecond),
      formatBlock(row, 0),
      formatBlock(row, 1),
      isRowMet(row) ? "✓" : row.failures.length > 0 ? "✗ ERRORS" : "✗",
    ]);
  }
  cells.push([
    "plain node:http, same bytes as /",
    "visitor",
    "",
    "",
    formatRate(baseline.plain.requestsPerSecond),
    formatMs(baseline.plain.p99Ms),
    `/ is ${formatRatio(baseline.app.requestsPerSecond / baseline.plain.requestsPerSecond)}`,
    "",
    "",
    isBaselineMet(baseline) ? "✓" : "✗",
  ]);
  const lines = pad(cells);
  lines.splice(1, 0, lines[0].replace(/[^|]/g, "-"));
  return [title, ...lines].join("\n");
}

/** One line: how many rows met the targets, and which did not, with what missed. */
export function formatVerdict(database: string, sizes: [number, number], rows: Row[], baseline: Baseline): string {
  const [small, large] = sizes.map(formatSize);
  const missed = rows
    .filter((row) => !isRowMet(row))
    .map((row) => {
      const reasons = [formatRatio(row.large.requestsPerSecond / row.small.requestsPerSecond), formatBlock(row, 1)];
      if (row.failures.length > 0) reasons.push("ERRORS");
      return `${row.name} ${row.viewer} (${reasons.join(", ")})`;
    });
  const plainRatio = baseline.app.requestsPerSecond / baseline.plain.requestsPerSecond;
  if (!isBaselineMet(baseline)) missed.push(`/ vs plain node (${formatRatio(plainRatio)})`);
  const met = rows.length + 1 - missed.length;
  const targets = `${large}/${small} ≥ ${RATIO_TARGET}x and loop ≤ ${LOOP_TARGET_MS} ms at ${large}, / ≥ ${PLAIN_NODE_TARGET}x plain node`;
  return `${database}: ${met} of ${rows.length + 1} rows meet the targets (${targets}). ${missed.length === 0 ? "All met." : `Missed: ${missed.join("; ")}.`}`;
}
