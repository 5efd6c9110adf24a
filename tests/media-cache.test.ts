import { describe, expect, inject, it } from "vitest";
import { parseMediaPath } from "@/src/photos/photo-publication";
import { createStorage } from "@/src/storage/create-storage";
import { type PhotoDetailBody, uploadCorpusFile, waitForProcessing } from "./helpers/photos";
import { signedInAs, TestClient } from "./helpers/test-client";

// The /media fast path (src/media/hot-media-fast-path.ts) answers public variants from memory in
// server.mjs once the route has served them. These tests tell its answers apart from the route's by
// removing the stored file after the first request: only the cache can still answer 200 then.

async function readyPhotoOf(relativePath: string): Promise<{ owner: TestClient; photo: PhotoDetailBody }> {
  const { client: owner } = await signedInAs("editor");
  const uploaded = await uploadCorpusFile(owner, relativePath);
  const photo = await waitForProcessing(owner, uploaded.id);
  expect(photo.status).toBe("ready");
  return { owner, photo };
}

async function setVisibility(client: TestClient, id: string, visibility: string): Promise<void> {
  const response = await client.request(`/api/photos/${id}`, { method: "PATCH", body: { json: { visibility } } });
  expect(response.status).toBe(200);
}

/** Removes a variant's file from the app's storage, so that only the hot cache could still serve it. */
async function removeStoredVariant(url: string): Promise<void> {
  const parsed = parseMediaPath(url.slice("/media/".length));
  if (!parsed) throw new Error(`Not a media URL: ${url}`);
  await createStorage(inject("storageConfig")).delete(parsed.storageKey);
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

async function fetchAnswer(client: TestClient, url: string, headers: Record<string, string> = {}, method = "GET"): Promise<Answer> {
  const response = await client.request(url, { method, headers });
  const body = Buffer.from(await response.arrayBuffer());
  const all = Object.fromEntries(response.headers);
  // The clock differs, and so does the framing: the route streams (chunked), the cache knows the
  // length. Content-Length, when sent, is checked against the body instead.
  if (all["content-length"] !== undefined && method !== "HEAD") expect(Number(all["content-length"])).toBe(body.length);
  for (const name of ["date", "content-length", "transfer-encoding"]) delete all[name];
  return { status: response.status, headers: all, body };
}

function withoutConnectionHeaders(headers: Record<string, string>): Record<string, string> {
  const copy = { ...headers };
  delete copy.connection;
  delete copy["keep-alive"];
  return copy;
}

describe("the /media hot cache", () => {
  it("answers a public variant the second time with the same bytes and headers as the route did, also for 304, 206, 416 and HEAD", async () => {
    // Another photo stopped being public since the cache last checked the access version: that
    // change must not drop what the route offers after it (it did once, in a CI run).
    const { owner: other, photo: withdrawn } = await readyPhotoOf("exif-samples/jpg/Nikon_D70.jpg");
    await setVisibility(other, withdrawn.id, "public");
    for (let round = 0; round < 2; round += 1) expect((await new TestClient().request(withdrawn.variants[0].url)).status).toBe(200);
    await setVisibility(other, withdrawn.id, "private");

    const { owner, photo } = await readyPhotoOf("exif-samples/jpg/Canon_40D.jpg");
    await setVisibility(owner, photo.id, "public");
    const visitor = new TestClient();
    const url = (photo.variants.find((variant) => variant.format === "jpeg") ?? photo.variants[0]).url;

    // From the route: partial answers are not offered to the cache, the first full one is.
    const etag = (await fetchAnswer(visitor, url, { Range: "bytes=0-0" })).headers.etag;
    const fromRoute = {
      notModified: await fetchAnswer(visitor, url, { "If-None-Match": etag }),
      range: await fetchAnswer(visitor, url, { Range: "bytes=10-99" }),
      unsatisfiable: await fetchAnswer(visitor, url, { Range: "bytes=99999999-" }),
      full: await fetchAnswer(visitor, url),
    };
    expect(fromRoute.full.status).toBe(200);
    expect(fromRoute.full.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(fromRoute.notModified.status).toBe(304);
    expect(fromRoute.range.status).toBe(206);
    expect(fromRoute.unsatisfiable.status).toBe(416);

    await removeStoredVariant(url);
    const fromCache = {
      notModified: await fetchAnswer(visitor, url, { "If-None-Match": etag }),
      range: await fetchAnswer(visitor, url, { Range: "bytes=10-99" }),
      unsatisfiable: await fetchAnswer(visitor, url, { Range: "bytes=99999999-" }),
      full: await fetchAnswer(visitor, url),
    };
    expect(fromCache).toEqual(fromRoute);
    expect(fromCache.range.body.equals(fromRoute.full.body.subarray(10, 100))).toBe(true);

    const head = await fetchAnswer(visitor, url, {}, "HEAD");
    expect(head.status).toBe(200);
    // Node.js itself closes the connection after a HEAD answered by fetch; everything else matches the GET.
    expect(withoutConnectionHeaders(head.headers)).toEqual(withoutConnectionHeaders(fromRoute.full.headers));
    expect(head.body.length).toBe(0);
  });

  it("answers 404 to the very next request once the photo is made private, even to the owner, who gets it privately at new URLs", async () => {
    const { owner, photo } = await readyPhotoOf("exif-samples/jpg/Pentax_K10D.jpg");
    await setVisibility(owner, photo.id, "public");
    const visitor = new TestClient();
    const urls = photo.variants.map((variant) => variant.url);
    for (const url of urls) expect((await visitor.request(url)).status).toBe(200);
    for (const url of urls) expect((await visitor.request(url)).status).toBe(200);

    await setVisibility(owner, photo.id, "private");
    for (const url of urls) {
      const answer = await visitor.request(url);
      expect(answer.status).toBe(404);
      expect(answer.headers.get("cache-control")).toBe("private, no-store");
      // The public URLs are dead for good (a CDN may hold them for a year), for the owner too.
      expect((await owner.request(url)).status).toBe(404);
    }
    const now = await waitForProcessing(owner, photo.id);
    for (const variant of now.variants) {
      expect(urls).not.toContain(variant.url);
      const asOwner = await owner.request(variant.url);
      expect(asOwner.status).toBe(200);
      expect(asOwner.headers.get("cache-control")).toBe("private, no-store");
    }
  });

  it("answers 404 to the very next request once the photo is deleted", async () => {
    const { owner, photo } = await readyPhotoOf("exif-samples/jpg/Canon_DIGITAL_IXUS_400.jpg");
    await setVisibility(owner, photo.id, "public");
    const visitor = new TestClient();
    const url = photo.variants[0].url;
    expect((await visitor.request(url)).status).toBe(200);
    expect((await owner.request(`/api/photos/${photo.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await visitor.request(url)).status).toBe(404);
  });

  it.each(["unlisted", "members"])("never caches a variant of a %s photo", async (visibility) => {
    const { owner, photo } = await readyPhotoOf("exif-samples/jpg/Panasonic_DMC-FZ30.jpg");
    await setVisibility(owner, photo.id, visibility);
    const { client: member } = await signedInAs("viewer");
    const url = photo.variants[0].url;
    const first = await member.request(url);
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("private, no-store");

    await removeStoredVariant(url);
    // Served again only if it had been cached; the route cannot find the file any more.
    expect((await member.request(url)).status).not.toBe(200);
    expect((await new TestClient().request(url)).status).not.toBe(200);
  });
});
