import { describe, expect, it } from "vitest";
import {
  findUnstorableText,
  identifierSchema,
  isStorableText,
  multilineText,
  parseIdentifierSegment,
  pathSegmentsSchema,
  singleLineText,
  withoutControlCharacters,
} from "./input-text";

describe("the one text rule", () => {
  it("removes C0 controls and DEL, keeping line feeds only where asked, and trims", () => {
    expect(withoutControlCharacters(" a\u0000b\tc\r\nd\u007f ")).toBe("abcd");
    expect(withoutControlCharacters(" a\u0000b\tc\r\nd ", { keepLineFeeds: true })).toBe("abc\nd");
  });

  it("keeps every other character, accents and emoji included", () => {
    expect(withoutControlCharacters("Café – 東京 📷")).toBe("Café – 東京 📷");
  });

  it("single-line and multi-line text schemas clean before they count", () => {
    expect(singleLineText(3, { minimum: 1 }).parse("\u0000ab\u0000c\n")).toBe("abc");
    expect(singleLineText(3, { minimum: 1 }).safeParse("\u0000\u0001 ").success).toBe(false);
    expect(multilineText(10).parse("line\r\none\u0000")).toBe("line\none");
  });
});

describe("storable text (SECURITY.md 58)", () => {
  it("refuses a NUL and a lone surrogate, accepts a whole pair", () => {
    expect(isStorableText("a\u0000b")).toBe(false);
    expect(isStorableText("a\ud800b")).toBe(false);
    expect(isStorableText("a\udc00")).toBe(false);
    expect(isStorableText("📷 \ufffd")).toBe(true);
  });

  it("finds an unstorable string anywhere in a parsed body, keys included", () => {
    expect(findUnstorableText({ a: [1, { b: "ok" }], c: true })).toBeUndefined();
    expect(findUnstorableText({ a: [1, { b: "x\u0000" }] })).toBe("x\u0000");
    expect(findUnstorableText({ "k\u0000": 1 })).toBe("k\u0000");
    expect(findUnstorableText([["q", "a\ud800"]])).toBe("a\ud800");
  });
});

describe("identifiers", () => {
  it.each(["6b1f0f7e-3c1a-4d2e-9a55-0c2f3e4d5a6b", "no-such-album", "Café", "a b"])("takes %j", (value) => {
    expect(identifierSchema.safeParse(value).success).toBe(true);
    expect(parseIdentifierSegment(value)).toBe(value);
  });

  it.each(["", "a\u0000b", "a\nb", "a\u007fb", "a\ud800", "x".repeat(201)])("refuses %j", (value) => {
    expect(identifierSchema.safeParse(value).success).toBe(false);
    expect(parseIdentifierSegment(value)).toBeNull();
  });

  it("checks every segment of a catch-all", () => {
    expect(pathSegmentsSchema.safeParse(["a", "b.jpg"]).success).toBe(true);
    expect(pathSegmentsSchema.safeParse(["a", "b\u0000"]).success).toBe(false);
    expect(pathSegmentsSchema.safeParse([]).success).toBe(false);
  });
});
