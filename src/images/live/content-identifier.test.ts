import { describe, expect, it } from "vitest";
import { cleanContentIdentifier } from "./content-identifier";

describe("cleanContentIdentifier", () => {
  it("keeps Apple's UUID as it is, trimmed", () => {
    expect(cleanContentIdentifier(" 570F1469-09C7-4E50-9875-05F21D5BD166 ")).toBe("570F1469-09C7-4E50-9875-05F21D5BD166");
  });

  it.each<[string, unknown]>([
    ["10 kB", "A".repeat(10_000)],
    ["a NUL", "570F1469\u0000-09C7"],
    ["a line break", "570F1469\n09C7"],
    ["a C1 control", "570F1469\u009b09C7"],
    ["only spaces", "   "],
    ["a number", 42],
    ["nothing", undefined],
  ])("ignores %s", (_name, value) => {
    expect(cleanContentIdentifier(value)).toBeNull();
  });
});
