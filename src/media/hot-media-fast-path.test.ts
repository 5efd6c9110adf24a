import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HotMediaCache } from "./hot-media-cache";
import { createHotMedia } from "./hot-media-fast-path";

const KEY = "variants/ab/abcdef/jpeg-400-0123456789abcdef0123.jpg";
const BYTES = Buffer.from(Array.from({ length: 1000 }, (_, index) => index % 251));
const ETAG = '"jpeg-400-0123456789abcdef0123.jpg"';

const cache = new HotMediaCache({ maxTotalBytes: 10_000, maxEntryBytes: 5_000, ttlMs: 10_000 });
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
});
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
