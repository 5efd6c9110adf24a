import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ByteRange } from "./byte-range";
import type { StoredMediaReader } from "./hot-media-answers";
import { HotMediaCache } from "./hot-media-cache";
import { createHotMedia, MAX_HOT_MEDIA_ENTRY_BYTES } from "./hot-media-fast-path";

const KEY = "variants/ab/abcdef/jpeg-400-0123456789abcdef0123.jpg";
const BYTES = Buffer.from(Array.from({ length: 1000 }, (_, index) => index % 251));
const ETAG = '"jpeg-400-0123456789abcdef0123.jpg"';

const cache = new HotMediaCache({ maxTotalBytes: 10_000, maxEntryBytes: 5_000, ttlMs: 10_000 });
// Storage as the fast path sees it: objects by key, read whole or a range; a missing one throws.
const stored = new Map<string, Buffer>();
const reads: Array<ByteRange | undefined> = [];
const storage: StoredMediaReader = {
  read: async (key, range) => {
    const bytes = stored.get(key);
    if (!bytes) throw new Error("This object does not exist");
    reads.push(range);
    const part = range ? bytes.subarray(range.start, Math.min(range.end, bytes.length - 1) + 1) : bytes;
    return { body: Readable.from([part]), size: bytes.length, contentLength: part.length, range: range ?? null };
  },
};
// The database's answer to "may the cache still answer?": tests flip it.
let isDatabaseReachable = true;
// "async" is like PostgreSQL (every request waits for confirm()), "sync" like SQLite (confirmed at once).
let confirmation: "async" | "sync" = "async";
const hotMedia = createHotMedia(cache, {
  confirmNow: () => {
    if (confirmation === "async") return false;
    if (!isDatabaseReachable) throw new Error("database unreachable");
    return true;
  },
  confirm: async () => {
    if (!isDatabaseReachable) throw new Error("database unreachable");
  },
}, storage);
// Stands in for Next.js: whatever the fast path does not answer arrives here.
const fellThrough = (response: http.ServerResponse) => response.writeHead(599, { "X-Fell-Through": "yes" }).end();
const server = http.createServer((request, response) => {
  if (hotMedia.respond(request, response, () => fellThrough(response))) return;
  fellThrough(response);
});
let baseUrl = "";

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  cache.offer({ key: KEY, photoId: "photo", bytes: BYTES, contentType: "image/jpeg", etag: ETAG }, cache.epoch);
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function get(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${baseUrl}${path}`, init);
}

describe("the /media fast path", () => {
  it("answers a cached variant with the route's public headers", async () => {
    const response = await get(`/media/${KEY}`);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(BYTES)).toBe(true);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      "content-type": "image/jpeg",
      "content-length": "1000",
      "cache-control": "public, max-age=31536000, immutable",
      etag: ETAG,
      "accept-ranges": "bytes",
      "x-content-type-options": "nosniff",
      "referrer-policy": "strict-origin-when-cross-origin",
      "x-frame-options": "DENY",
    });
  });

  it("answers HEAD with the headers and no body", async () => {
    const response = await get(`/media/${KEY}`, { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-length")).toBe("1000");
    expect((await response.arrayBuffer()).byteLength).toBe(0);
  });

  it("answers 304 to a matching If-None-Match", async () => {
    const response = await get(`/media/${KEY}`, { headers: { "If-None-Match": ETAG } });
    expect(response.status).toBe(304);
    expect(response.headers.get("etag")).toBe(ETAG);
  });

  it.each([
    ["bytes=0-99", 0, 99],
    ["bytes=900-", 900, 999],
    ["bytes=-10", 990, 999],
    ["bytes=950-5000", 950, 999],
  ])("answers 206 to %s", async (range, start, end) => {
    const response = await get(`/media/${KEY}`, { headers: { Range: range } });
    expect(response.status).toBe(206);
    expect(response.headers.get("content-range")).toBe(`bytes ${start}-${end}/1000`);
    expect(response.headers.get("content-length")).toBe(String(end - start + 1));
    expect(Buffer.from(await response.arrayBuffer()).equals(BYTES.subarray(start, end + 1))).toBe(true);
  });

  it.each(["bytes=1000-", "bytes=5-2", "bytes=-0", "bytes=0-1,5-6", "items=0-1"])("answers 416 to %s", async (range) => {
    const response = await get(`/media/${KEY}`, { headers: { Range: range } });
    expect(response.status).toBe(416);
    expect(response.headers.get("content-range")).toBe("bytes */1000");
  });

  it.each([
    ["another key", `/media/${KEY}x`, "GET"],
    ["a query string", `/media/${KEY}?v=1`, "GET"],
    ["an encoded path", `/media/${KEY.replaceAll("/", "%2F")}`, "GET"],
    ["another method", `/media/${KEY}`, "DELETE"],
    ["another prefix", `/api/${KEY}`, "GET"],
  ])("leaves %s to Next.js", async (_, path, method) => {
    const response = await get(path, { method });
    expect(response.status).toBe(599);
  });

  it("leaves a cached variant to Next.js when the access version cannot be read", async () => {
    isDatabaseReachable = false;
    try {
      expect((await get(`/media/${KEY}`)).status).toBe(599);
    } finally {
      isDatabaseReachable = true;
    }
    expect((await get(`/media/${KEY}`)).status).toBe(200);
  });

  it("answers at once when the version can be read synchronously, and leaves the variant to Next.js when that read fails", async () => {
    confirmation = "sync";
    try {
      const response = await get(`/media/${KEY}`, { headers: { Range: "bytes=0-9" } });
      expect(response.status).toBe(206);
      expect(Buffer.from(await response.arrayBuffer()).equals(BYTES.subarray(0, 10))).toBe(true);
      isDatabaseReachable = false;
      expect((await get(`/media/${KEY}`)).status).toBe(599);
    } finally {
      isDatabaseReachable = true;
      confirmation = "async";
    }
  });

  it("leaves a variant to Next.js once its photo was dropped", async () => {
    cache.dropPhoto("photo");
    expect((await get(`/media/${KEY}`)).status).toBe(599);
  });
});

// A video's playable copy: too large to hold, remembered by where it is stored.
const VIDEO_STORAGE_KEY = "variants/cd/cdef01/playable-0123456789abcdef0123.mp4";
// The URL's path: the photo's publication key, then where the copy is stored.
const VIDEO_KEY = `AbCdEfGhIjKlMnOp/${VIDEO_STORAGE_KEY}`;
const VIDEO_ETAG = '"playable-0123456789abcdef0123.mp4"';
const VIDEO = Buffer.from(Array.from({ length: MAX_HOT_MEDIA_ENTRY_BYTES + 4096 }, (_, index) => index % 253));
// A short clip's copy: stored, but small enough to hold once the route serves it whole.
const CLIP_KEY = "variants/cd/cdef02/playable-aaaaaaaaaaaaaaaaaaaa.mp4";
const CLIP = Buffer.from(Array.from({ length: 2000 }, (_, index) => index % 7));

function offerStored(key: string, storageKey: string, photoId: string, bytes: Buffer): void {
  stored.set(storageKey, bytes);
  const etag = `"${storageKey.split("/").pop()}"`;
  cache.offer({ key, photoId, bytes: null, storageKey, size: bytes.length, contentType: "video/mp4", etag }, cache.epoch);
}

describe("the /media fast path for a variant too large to hold", () => {
  beforeAll(() => {
    offerStored(VIDEO_KEY, VIDEO_STORAGE_KEY, "video", VIDEO);
    offerStored(CLIP_KEY, CLIP_KEY, "clip", CLIP);
  });

  it.each(["async", "sync"] as const)("streams a Range from storage, reading only that range, with its length (%s confirmation)", async (mode) => {
    confirmation = mode;
    reads.length = 0;
    try {
      const middle = Math.floor(VIDEO.length / 2);
      const response = await get(`/media/${VIDEO_KEY}`, { headers: { Range: `bytes=${middle}-${middle + 999}` } });
      expect(response.status).toBe(206);
      expect(Object.fromEntries(response.headers)).toMatchObject({
        "content-type": "video/mp4",
        "content-length": "1000",
        "content-range": `bytes ${middle}-${middle + 999}/${VIDEO.length}`,
        "cache-control": "public, max-age=31536000, immutable",
        etag: VIDEO_ETAG,
        "x-frame-options": "DENY",
      });
      expect(Buffer.from(await response.arrayBuffer()).equals(VIDEO.subarray(middle, middle + 1000))).toBe(true);
      expect(reads).toEqual([{ start: middle, end: middle + 999 }]);
    } finally {
      confirmation = "async";
    }
  });

  it("streams the whole copy to a GET without Range, and answers HEAD, 304 and 416 without reading it", async () => {
    const whole = await get(`/media/${VIDEO_KEY}`);
    expect([whole.status, whole.headers.get("content-length")]).toEqual([200, String(VIDEO.length)]);
    expect(Buffer.from(await whole.arrayBuffer()).equals(VIDEO)).toBe(true);
    reads.length = 0;
    const head = await get(`/media/${VIDEO_KEY}`, { method: "HEAD" });
    expect([head.status, head.headers.get("content-length")]).toEqual([200, String(VIDEO.length)]);
    expect((await get(`/media/${VIDEO_KEY}`, { headers: { "If-None-Match": `W/${VIDEO_ETAG}` } })).status).toBe(304);
    const past = await get(`/media/${VIDEO_KEY}`, { headers: { Range: `bytes=${VIDEO.length}-` } });
    expect([past.status, past.headers.get("content-range")]).toEqual([416, `bytes */${VIDEO.length}`]);
    expect(reads).toEqual([]);
  });

  it("honours If-Range: the part for this copy's tag, the whole copy for another tag or a date", async () => {
    const part = await get(`/media/${VIDEO_KEY}`, { headers: { Range: "bytes=0-9", "If-Range": VIDEO_ETAG } });
    expect([part.status, (await part.arrayBuffer()).byteLength]).toEqual([206, 10]);
    for (const ifRange of ['"another-copy.mp4"', `W/${VIDEO_ETAG}`, "Sat, 28 Nov 2026 02:00:00 GMT"]) {
      const whole = await get(`/media/${VIDEO_KEY}`, { headers: { Range: "bytes=0-9", "If-Range": ifRange } });
      expect([whole.status, whole.headers.get("content-range"), (await whole.arrayBuffer()).byteLength]).toEqual([200, null, VIDEO.length]);
    }
  });

  it("takes only Range requests for a stored copy small enough to hold: the route serves it whole, and holds it", async () => {
    const ranged = await get(`/media/${CLIP_KEY}`, { headers: { Range: "bytes=10-19" } });
    expect([ranged.status, ranged.headers.get("content-length")]).toEqual([206, "10"]);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(CLIP.subarray(10, 20))).toBe(true);
    expect((await get(`/media/${CLIP_KEY}`)).status).toBe(599);
    expect((await get(`/media/${CLIP_KEY}`, { method: "HEAD" })).status).toBe(599);
  });

  it("leaves the request to Next.js, and forgets the photo's entries, when the stored copy is gone or other than the route saw", async () => {
    stored.set(CLIP_KEY, Buffer.concat([CLIP, CLIP]));
    expect((await get(`/media/${CLIP_KEY}`, { headers: { Range: "bytes=0-9" } })).status).toBe(599);
    expect(cache.find(CLIP_KEY)).toBeUndefined();
    stored.delete(VIDEO_STORAGE_KEY);
    expect((await get(`/media/${VIDEO_KEY}`, { headers: { Range: "bytes=0-9" } })).status).toBe(599);
    expect(cache.find(VIDEO_KEY)).toBeUndefined();
  });
});
