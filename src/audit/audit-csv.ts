/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break, quotes doubled. A
 * cell a spreadsheet would read as a formula (starting with =, +, -, @, or a tab or carriage
 * return that some read past) gets a leading apostrophe, so an address or user agent an attacker
 * chose is shown as text and never run (OWASP "CSV injection").
 */
export function toCsvCell(value: string | null | undefined): string {
  let text = value ?? "";
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsvLine(cells: ReadonlyArray<string | null | undefined>): string {
  return `${cells.map(toCsvCell).join(",")}\r\n`;
}
