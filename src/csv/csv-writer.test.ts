import { describe, expect, it } from "vitest";
import { toCsvCell, toCsvLine } from "./csv-writer";

/**
 * A spreadsheet's reading of CSV text: cells split at `separator`, records at CR or LF, a quote
 * honoured only where a cell starts (as Excel does). Reading a comma-separated file with `;` is
 * what Excel does where `;` is the list separator.
 */
function readCsv(text: string, separator: "," | ";"): string[] {
  const cells: string[] = [];
  let cell = "";
  let isQuoted = false;
  let isCellStart = true;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index];
    if (isQuoted) {
      if (character === '"' && text[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (character === '"') isQuoted = false;
      else cell += character;
      continue;
    }
    if (character === '"' && isCellStart) {
      isQuoted = true;
      isCellStart = false;
    } else if (character === separator || character === "\r" || character === "\n") {
      cells.push(cell);
      cell = "";
      isCellStart = true;
    } else {
      cell += character;
      isCellStart = false;
    }
  }
  cells.push(cell);
  return cells;
}

/** What a spreadsheet would run as a formula: a cell starting (after spaces) with one of these. */
const RUNS_AS_FORMULA = /^ *[=+\-@\t\uff1d\uff0b\uff0d\uff20]/;

/** The apostrophes the writer adds: at a cell's start and after a separator, before a formula start. */
const ADDED_APOSTROPHE = /(^|[,;\t\r\n])'(?=[ "]*[=+\-@\t\r\n\uff1d\uff0b\uff0d\uff20])/g;

/** The probe's cell and its relatives: a formula after a separator, at the start, after a line break. */
const HOSTILE_CELLS = [
  "x;=cmd|' /C calc'!A0",
  "x,=cmd|' /C calc'!A0",
  "=cmd|' /C calc'!A0",
  "+1+1",
  "-2+3",
  "@SUM(A1:A2)",
  "\t=1",
  "\r=1",
  "\n=1",
  "  =1",
  "\uff1d1+1",
  'a;"b";=c',
  'a; "=c"',
  "Mozilla/5.0; x;+1;-1;@x",
  "x;\t=1",
  "two\r\nlines;=1",
];

describe("the CSV writer", () => {
  it("keeps every hostile cell one cell, never a formula, with `,` or `;` as the separator", () => {
    const line = toCsvLine(["before", ...HOSTILE_CELLS, "after"]).replace(/\r\n$/, "");
    for (const separator of [",", ";"] as const) {
      for (const cell of readCsv(line, separator)) expect(cell).not.toMatch(RUNS_AS_FORMULA);
    }
    // Read as written (commas), every cell is one cell and reads back as typed, but for the apostrophes.
    const cells = readCsv(line.replaceAll("\r", "\u2028").replaceAll("\n", "\u2029"), ",");
    expect(cells.slice(1, -1).map((cell) => cell.replaceAll("\u2028", "\r").replaceAll("\u2029", "\n").replace(ADDED_APOSTROPHE, "$1"))).toEqual(HOSTILE_CELLS);
  });

  it("quotes cells with a separator, quote, tab or line break, doubling quotes", () => {
    expect(toCsvCell("plain")).toBe("plain");
    expect(toCsvCell('a "b", c')).toBe('"a ""b"", c"');
    expect(toCsvCell("a;b")).toBe('"a;b"');
    expect(toCsvCell("a\tb")).toBe('"a\tb"');
    expect(toCsvCell("two\nlines")).toBe('"two\nlines"');
    expect(toCsvCell(null)).toBe("");
  });

  it("turns a formula start into quoted text with an apostrophe, and leaves `=` inside a word alone", () => {
    expect(toCsvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(toCsvCell("-1")).toBe(`"'-1"`);
    expect(toCsvCell("a=b")).toBe("a=b");
  });

  it("ends a line with CRLF", () => {
    expect(toCsvLine(["a", null, "b,c"])).toBe('a,,"b,c"\r\n');
  });
});
