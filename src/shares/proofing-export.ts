import { toCsvLine } from "@/src/csv/csv-writer";

// The owner's exports of a share's proofing, as plain functions of their rows (no database):
// the CSV and the file-name list for Lightroom Classic's Library Filter.

export interface SelectionCsvRow {
  visitorName: string;
  visitorEmail: string | null;
  photoTitle: string;
  originalName: string;
  picked: boolean;
  comment: string | null;
  sentAt: string | null;
}

export const SELECTION_CSV_HEADER = ["Visitor", "E-mail", "Photo title", "Original file name", "Picked", "Comment", "Sent at"] as const;

/**
 * One row per visitor and photo they picked or commented on, RFC 4180 (CRLF, quoted where needed)
 * with a header row; a cell a spreadsheet would run as a formula is written as text (toCsvCell).
 */
export function toSelectionsCsv(rows: readonly SelectionCsvRow[]): string {
  return [
    toCsvLine(SELECTION_CSV_HEADER),
    ...rows.map((row) =>
      toCsvLine([row.visitorName, row.visitorEmail, row.photoTitle, row.originalName, row.picked ? "yes" : "no", row.comment, row.sentAt]),
    ),
  ].join("");
}

/** A file name without its folder and its last extension: "DSC_0042.NEF" → "DSC_0042". */
export function fileNameStem(originalName: string): string {
  const base = originalName.split(/[\\/]/).pop() ?? "";
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(0, dot) : base;
}

/**
 * The picked photos' file names as Lightroom Classic's Library Filter takes them: Text, "Filename",
 * "Contains", where a comma separates alternatives (any of them matches). Without the extension,
 * so a RAW, its DNG and an exported JPEG all match; each name once, in the order given. A comma in a
 * file name would split it, so such a name is cut at its first comma (still a unique enough prefix
 * to find in Lightroom); names left empty are dropped.
 */
export function toLightroomFilter(originalNames: readonly string[]): string {
  const stems: string[] = [];
  for (const name of originalNames) {
    const stem = fileNameStem(name).split(",")[0].trim();
    if (stem && !stems.includes(stem)) stems.push(stem);
  }
  return stems.join(", ");
}
