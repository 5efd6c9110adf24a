import { describe, expect, it } from "vitest";
import { toAttachmentDisposition } from "./content-disposition";

describe("toAttachmentDisposition", () => {
  it("keeps a plain name", () => {
    expect(toAttachmentDisposition("IMG_0001.jpg")).toBe(`attachment; filename="IMG_0001.jpg"; filename*=UTF-8''IMG_0001.jpg`);
  });

  it.each([
    ["a\r\nSet-Cookie: x=1.jpg"],
    ['quote".jpg'],
    ["back\\slash.jpg"],
    ["\u202egpj.exe"],
    ["..%2f..%2fetc/passwd"],
    ["photo\u0000.jpg"],
  ])("never lets %j break the header", (name) => {
    const header = toAttachmentDisposition(name);
    expect(header).not.toMatch(/[\r\n\u0000\u202e]/);
    const fallback = /filename="([^"]*)"/.exec(header)?.[1] ?? "";
    expect(fallback).not.toMatch(/["\\/]/);
    expect(header.startsWith("attachment;")).toBe(true);
  });

  it("encodes Unicode names in filename*", () => {
    expect(toAttachmentDisposition("Sommer 🌞 Zürich.jpg")).toContain("filename*=UTF-8''Sommer%20%F0%9F%8C%9E%20Z%C3%BCrich.jpg");
  });
});
