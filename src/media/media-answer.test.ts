import { describe, expect, it } from "vitest";
import { decideMediaAnswer, toMediaEtag } from "./media-answer";

const ETAG = toMediaEtag("variants/ab/abcdef/jpeg-400-0123456789abcdef0123.jpg");
const PUBLIC = { size: 1000, etag: ETAG, contentType: "image/jpeg", isPublic: true };

describe("decideMediaAnswer", () => {
  it("answers 200 with the whole variant and its public headers", () => {
    expect(decideMediaAnswer({ ifNoneMatch: null, range: null, ifRange: null }, PUBLIC)).toEqual({
      status: 200,
      range: null,
      headers: {
        "Content-Type": "image/jpeg",
        "Cache-Control": "public, max-age=31536000, immutable",
        ETag: '"jpeg-400-0123456789abcdef0123.jpg"',
        "Accept-Ranges": "bytes",
        "X-Content-Type-Options": "nosniff",
        "Content-Length": "1000",
      },
    });
  });

  it("never lets a variant that is not public be cached", () => {
    expect(decideMediaAnswer({ ifNoneMatch: null, range: null, ifRange: null }, { ...PUBLIC, isPublic: false }).headers["Cache-Control"]).toBe("private, no-store");
  });

  it("answers 304 to a matching If-None-Match, before looking at the range", () => {
    const answer = decideMediaAnswer({ ifNoneMatch: ETAG, range: "bytes=5-2", ifRange: null }, PUBLIC);
    expect(answer.status).toBe(304);
    expect(answer.headers["Content-Length"]).toBeUndefined();
  });

  it("answers 206 with the range's length and position", () => {
    const answer = decideMediaAnswer({ ifNoneMatch: '"other"', range: "bytes=-10", ifRange: undefined }, PUBLIC);
    expect(answer).toMatchObject({ status: 206, range: { start: 990, end: 999 } });
    expect(answer.headers).toMatchObject({ "Content-Length": "10", "Content-Range": "bytes 990-999/1000" });
  });

  it("answers 416 to a range it cannot satisfy", () => {
    const answer = decideMediaAnswer({ ifNoneMatch: undefined, range: "bytes=1000-", ifRange: undefined }, PUBLIC);
    expect(answer).toMatchObject({ status: 416, range: null });
    expect(answer.headers["Content-Range"]).toBe("bytes */1000");
  });

  it.each([`W/${ETAG}`, `"other", ${ETAG}`, "*"])("answers 304 to If-None-Match %s (weak comparison, lists, any)", (ifNoneMatch) => {
    expect(decideMediaAnswer({ ifNoneMatch, range: null, ifRange: null }, PUBLIC).status).toBe(304);
  });

  it("answers the range when If-Range names this variant's tag, and the whole variant when it names other bytes", () => {
    expect(decideMediaAnswer({ ifNoneMatch: null, range: "bytes=0-9", ifRange: ETAG }, PUBLIC).status).toBe(206);
    for (const ifRange of ['"other"', `W/${ETAG}`, "Sat, 28 Nov 2026 02:00:00 GMT"]) {
      const answer = decideMediaAnswer({ ifNoneMatch: null, range: "bytes=0-9", ifRange }, PUBLIC);
      expect(answer).toMatchObject({ status: 200, range: null });
      expect(answer.headers["Content-Length"]).toBe("1000");
    }
  });
});
