import { describe, expect, it } from "vitest";
import { cleanTagName, tagKey, tagNameProblem, tagPath } from "./tag-name";

describe("tag names", () => {
  it("makes composed, decomposed and upper-case spellings one key", () => {
    expect(tagKey("Café")).toBe(tagKey("Cafe\u0301"));
    expect(tagKey("CAFÉ")).toBe(tagKey("café"));
    expect(tagKey("Straße")).toBe(tagKey("STRASSE"));
  });

  it("shows the name in NFC, trimmed, with inner whitespace collapsed", () => {
    expect(cleanTagName("  Cafe\u0301 \t  au\nlait ")).toBe("Café au lait");
    expect(cleanTagName("a,b")).toBe("a b");
  });

  it("refuses empty and too long names", () => {
    expect(tagNameProblem("   ")).toMatch(/empty/);
    expect(tagNameProblem("x".repeat(65))).toMatch(/64/);
    expect(tagNameProblem("é".repeat(64))).toBeNull();
  });

  it("links to a tag by its key", () => {
    expect(tagPath("café au lait")).toBe("/tags/caf%C3%A9%20au%20lait");
  });
});
