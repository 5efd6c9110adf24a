import { describe, expect, it } from "vitest";
import { fileNameStem, toLightroomFilter, toSelectionsCsv } from "./proofing-export";

describe("the selections CSV", () => {
  it("writes a header and one RFC 4180 row per visitor and photo, formulas as text", () => {
    const csv = toSelectionsCsv([
      { visitorName: "Ann", visitorEmail: "ann@example.test", photoTitle: "First dance", originalName: "DSC_0001.NEF", picked: true, comment: null, sentAt: "2026-11-20T10:00:00.000Z" },
      { visitorName: "Bo, the uncle", visitorEmail: null, photoTitle: "", originalName: "IMG 2.jpg", picked: false, comment: '=cmd|"/c calc"!A1\nsecond line', sentAt: null },
    ]);
    expect(csv.split("\r\n")).toEqual([
      "Visitor,E-mail,Photo title,Original file name,Picked,Comment,Sent at",
      "Ann,ann@example.test,First dance,DSC_0001.NEF,yes,,2026-11-20T10:00:00.000Z",
      `"Bo, the uncle",,,IMG 2.jpg,no,"'=cmd|""/c calc""!A1\nsecond line",`,
      "",
    ]);
  });

  it("makes every formula start (=, +, -, @) text, and keeps a name with a `;` in one cell", () => {
    for (const start of ["=", "+", "-", "@"]) {
      const csv = toSelectionsCsv([{ visitorName: `${start}1+1`, visitorEmail: null, photoTitle: "t", originalName: "a.jpg", picked: true, comment: null, sentAt: null }]);
      expect(csv.split("\r\n")[1].startsWith(`"'${start}1+1",`)).toBe(true);
    }
    const csv = toSelectionsCsv([{ visitorName: "x;=cmd|' /C calc'!A0", visitorEmail: null, photoTitle: "t", originalName: "a.jpg", picked: true, comment: null, sentAt: null }]);
    expect(csv.split("\r\n")[1].startsWith(`"x;'=cmd|' /C calc'!A0",`)).toBe(true);
  });
});

describe("the Lightroom list", () => {
  it("strips folders and the last extension", () => {
    expect(fileNameStem("DSC_0042.NEF")).toBe("DSC_0042");
    expect(fileNameStem("wedding/IMG.0001.jpg")).toBe("IMG.0001");
    expect(fileNameStem("C:\\shots\\raw")).toBe("raw");
    expect(fileNameStem(".hidden")).toBe(".hidden");
  });

  it("joins distinct stems with commas, the OR list Filename / Contains takes", () => {
    expect(toLightroomFilter(["DSC_0001.NEF", "DSC_0002.jpg", "DSC_0001.jpg", "odd, name.tif", ""])).toBe("DSC_0001, DSC_0002, odd");
    expect(toLightroomFilter([])).toBe("");
  });
});
