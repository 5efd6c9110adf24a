import { describe, expect, it } from "vitest";
import { isFinalRefusal, readFinishedUpload, readRefusalMessage, refusalWithoutFileName } from "./upload-answers";

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

describe("refusalWithoutFileName", () => {
  it("drops the quoted file name the API puts before its reason", () => {
    expect(refusalWithoutFileName('"corrupted.jpg": The image could not be decoded: the file is truncated or corrupt.')).toBe(
      "The image could not be decoded: the file is truncated or corrupt.",
    );
    expect(refusalWithoutFileName('"notes.txt" is not a photo we can read (JPEG, PNG).')).toBe("Not a photo we can read (JPEG, PNG).");
    expect(refusalWithoutFileName('"say \\"cheese\\".jpg": Too large.')).toBe("Too large.");
  });

  it("keeps a message that does not start with a file name", () => {
    expect(refusalWithoutFileName("Your upload quota is used up.")).toBe("Your upload quota is used up.");
    expect(refusalWithoutFileName('"unclosed: Too large.')).toBe('"unclosed: Too large.');
  });
});
