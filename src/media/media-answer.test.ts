import { describe, expect, it } from "vitest";
import { decideMediaAnswer, toMediaEtag } from "./media-answer";

const ETAG = toMediaEtag("variants/ab/abcdef/jpeg-400-0123456789abcdef0123.jpg");
const PUBLIC = { size: 1000, etag: ETAG, contentType: "image/jpeg", isPublic: true };

describe("decideMediaAnswer", () => {
  it("answers 200 with the whole variant and its public headers", () => {
    expect(decideMediaAnswer({ ifNoneMatch: null, range: null }, PUBLIC)).toEqual({
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
    expect(decideMediaAnswer({ ifNoneMatch: null, range: null }, { ...PUBLIC, isPublic: false }).headers["Cache-Control"]).toBe("private, no-store");
  });

  it("answers 304 to a matching If-None-Match, before looking at the range", () => {
    const answer = decideMediaAnswer({ ifNoneMatch: ETAG, range: "bytes=5-2" }, PUBLIC);
    expect(answer.status).toBe(304);
    expect(answer.headers["Content-Length"]).toBeUndefined();
  });

  it("answers 206 with the range's length and position", () => {
    const answer = decideMediaAnswer({ ifNoneMatch: '"other"', range: "bytes=-10" }, PUBLIC);
    expect(answer).toMatchObject({ status: 206, range: { start: 990, end: 999 } });
    expect(answer.headers).toMatchObject({ "Content-Length": "10", "Content-Range": "bytes 990-999/1000" });
  });

  it("answers 416 to a range it cannot satisfy", () => {
    const answer = decideMediaAnswer({ ifNoneMatch: undefined, range: "bytes=1000-" }, PUBLIC);
    expect(answer).toMatchObject({ status: 416, range: null });
    expect(answer.headers["Content-Range"]).toBe("bytes */1000");
  });
});
