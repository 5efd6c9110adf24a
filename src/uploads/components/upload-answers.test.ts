import { describe, expect, it } from "vitest";
import { readFinishedUpload, readRefusalMessage } from "./upload-answers";

describe("reading the tus endpoint's answers", () => {
  it("reads the finished photo", () => {
    const text = JSON.stringify({ photo: { id: "a1", status: "processing", name: "x.jpg", isDuplicate: true } });
    expect(readFinishedUpload(text)).toEqual({ id: "a1", status: "processing", name: "x.jpg", isDuplicate: true });
  });

  it("answers null for an empty body, other JSON or no JSON at all", () => {
    expect(readFinishedUpload("")).toBeNull();
    expect(readFinishedUpload(undefined)).toBeNull();
    expect(readFinishedUpload("{\"photo\":{}}")).toBeNull();
    expect(readFinishedUpload("<html>")).toBeNull();
  });

  it("reads a refusal's message, and nothing from tus's plain-text errors", () => {
    expect(readRefusalMessage(JSON.stringify({ error: { code: "UNSUPPORTED_MEDIA_TYPE", message: "Not a photo" } }))).toBe("Not a photo");
    expect(readRefusalMessage("Upload-Offset conflict")).toBeNull();
  });
});
