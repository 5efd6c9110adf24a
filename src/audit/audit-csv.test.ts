import { describe, expect, it } from "vitest";
import { toCsvCell, toCsvLine } from "./audit-csv";
import { changedFields } from "./changed-fields";

describe("CSV cells", () => {
  it("quotes cells with commas, quotes or line breaks, doubling quotes", () => {
    expect(toCsvCell("plain")).toBe("plain");
    expect(toCsvCell('a "b", c')).toBe('"a ""b"", c"');
    expect(toCsvCell("two\nlines")).toBe('"two\nlines"');
    expect(toCsvCell(null)).toBe("");
  });

  it("turns cells a spreadsheet would run as formulas into text", () => {
    for (const cell of ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"]) expect(toCsvCell(cell).replace(/^"/, "")).toMatch(/^'/);
    expect(toCsvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(toCsvCell("a=b")).toBe("a=b");
  });

  it("ends a line with CRLF", () => {
    expect(toCsvLine(["a", null, "b,c"])).toBe('a,,"b,c"\r\n');
  });
});

describe("changed fields", () => {
  it("keeps only what changed, before and after", () => {
    expect(changedFields({ title: "a", tags: ["x"], note: null }, { title: "b", tags: ["x"], note: null })).toEqual({
      before: { title: "a" },
      after: { title: "b" },
    });
    expect(changedFields<{ allow: boolean | null }>({ allow: true }, { allow: null })).toEqual({ before: { allow: true }, after: { allow: null } });
  });
});
