/**
 * The one CSV writer every export uses (the audit log, a share's proofing selections): RFC 4180
 * lines (comma-separated, CRLF, quotes doubled), written so that no cell an outsider typed (a user
 * agent, a visitor's name) is run as a formula by a spreadsheet, whatever it splits on. Excel uses
 * the locale's list separator, `;` where the decimal mark is a comma, and honours a quote only at
 * the start of what it takes for a cell: opening this file there, `a,"x;=cmd|' /C calc'!A0"` is
 * split at the `;` and `=cmd|...` becomes a cell of its own, quoted or not. So (OWASP "CSV
 * Injection", applied to every place a misreading spreadsheet may start a cell):
 *
 * 1. A cell holding `,` `;` `"` CR, LF or TAB is quoted, quotes doubled: one cell to a reader that
 *    splits at commas.
 * 2. A cell whose text starts, after spaces, with `=` `+` `-` `@` TAB, CR or LF, or the full-width
 *    `＝ ＋ － ＠` East Asian Excel also takes, gets a leading apostrophe (and is quoted): shown as text.
 * 3. Inside a cell, every `,` `;` TAB, CR or LF (where another reader may start a cell) followed,
 *    after spaces or quotes, by one of those formula starts gets an apostrophe right after it, so
 *    the cell a `;` reader cuts off there starts with `'` and is text too.
 *
 * Nothing else changes: the text reads back as typed, but for the apostrophes of 2 and 3.
 */

const NEEDS_QUOTES = /[",;\r\n\t]/;
const FORMULA_START = /^ *[=+\-@\t\r\n\uff1d\uff0b\uff0d\uff20]/;
const FORMULA_AFTER_SEPARATOR = /([,;\t\r\n])(?=[ "]*[=+\-@\t\uff1d\uff0b\uff0d\uff20])/g;

export function toCsvCell(value: string | null | undefined): string {
  let text = (value ?? "").replace(FORMULA_AFTER_SEPARATOR, "$1'");
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) || text.startsWith("'") ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record: its cells joined by commas, ended by CRLF. */
export function toCsvLine(cells: ReadonlyArray<string | null | undefined>): string {
  return `${cells.map(toCsvCell).join(",")}\r\n`;
}
