import { describe, expect, it } from "vitest";
import { isFinalRefusal, readFinishedUpload, readRefusalMessage } from "./upload-answers";

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

  it("treats 4xx refusals as final, but not timeouts, conflicts, locks, rate limits, 5xx or no answer", () => {
    for (const status of [400, 403, 413, 415, 422]) expect(isFinalRefusal(status)).toBe(true);
    for (const status of [undefined, 0, 200, 408, 409, 423, 429, 500, 503, 507]) expect(isFinalRefusal(status)).toBe(false);
  });
});
