import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type PhotoDetailBody, uploadCorpusFile, waitForProcessing } from "./helpers/photos";
import { findFreePort, type RunningServer, spawnServer, waitUntilHealthy } from "./helpers/server-process";
import { startTestApp, type TestApp, testStorageFromEnvironment } from "./helpers/test-app";
import { createTestUser, TestClient } from "./helpers/test-client";
import { TEST_SECRET } from "./setup/global-setup";

// SECURITY.md 55: a public photo made private (or deleted). Its public variant URLs die and are never
// handed out again; every app instance on the database refuses them from the next request on, also
// from its in-memory cache; a CDN in front hears of them through CDN_PURGE_URL.

const ADMIN = { email: "publication@example.test", password: "publication-password-1" };

/** Stands in for a CDN's purge API: remembers every URL it was told to drop. */
function startPurgeReceiver(): Promise<{ url: string; purged: string[]; close(): Promise<void> }> {
  const purged: string[] = [];
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      if (request.method === "POST" && request.headers["content-type"] === "application/json") purged.push(...(JSON.parse(body) as { urls: string[] }).urls);
      response.writeHead(204).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/purge`,
        purged,
        close: () => new Promise((done) => server.close(() => done())),
      }),
    ),
  );
}

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("Timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

let first: TestApp;
let second: RunningServer;
let receiver: Awaited<ReturnType<typeof startPurgeReceiver>>;
let ownerOnFirst: TestClient;
let ownerOnSecond: TestClient;

beforeAll(async () => {
  receiver = await startPurgeReceiver();
  const storage = testStorageFromEnvironment(inject("storageConfig").kind);
  const shared = { NEXTAUTH_SECRET: TEST_SECRET, CDN_PURGE_URL: receiver.url, ...storage.env };
  first = await startTestApp(inject("databaseKind"), { ...shared, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  // A second instance of the app on the same database and storage, as behind a load balancer.
  const port = await findFreePort();
  second = spawnServer(port, {
    ...shared,
    NEXTAUTH_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: first.dataDirectory,
    ...(first.databaseUrl ? { DATABASE_URL: first.databaseUrl } : {}),
  });
  await waitUntilHealthy(second);
  ownerOnFirst = new TestClient(first.url);
  await ownerOnFirst.signIn(ADMIN.email, ADMIN.password);
  ownerOnSecond = new TestClient(second.url);
  await ownerOnSecond.signIn(ADMIN.email, ADMIN.password);
}, 90_000);

afterAll(async () => {
  await second?.stop();
  await first?.stop();
  await receiver?.close();
});

async function publicPhotoOf(relativePath: string): Promise<PhotoDetailBody> {
  const uploaded = await uploadCorpusFile(ownerOnFirst, relativePath);
  const ready = await waitForProcessing(ownerOnFirst, uploaded.id);
  expect(ready.status).toBe("ready");
  await setVisibility(ownerOnFirst, ready.id, "public");
  return waitForProcessing(ownerOnFirst, ready.id);
}

async function setVisibility(client: TestClient, id: string, visibility: string): Promise<PhotoDetailBody> {
  const response = await client.request(`/api/photos/${id}`, { method: "PATCH", body: { json: { visibility } } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { photo: PhotoDetailBody }).photo;
}

/** Fetches each URL twice from each instance, so both hold it in their in-memory cache. */
async function warmBothCaches(urls: string[]): Promise<void> {
  for (const server of [first.url, second.url]) {
    const visitor = new TestClient(server);
    for (let round = 0; round < 2; round += 1) {
      for (const url of urls) {
        const answer = await visitor.request(url);
        expect(answer.status, `${server}${url}`).toBe(200);
        expect(answer.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      }
    }
  }
}

describe("a public photo that stops being public", () => {
  it.each(["private", "members", "unlisted"])("made %s on one instance, is refused by both from the next request on", async (visibility) => {
    const photo = await publicPhotoOf("exif-samples/jpg/Pentax_K10D.jpg");
    const urls = photo.variants.map((variant) => variant.url);
    await warmBothCaches(urls);

    await setVisibility(ownerOnFirst, photo.id, visibility);
    for (const server of [second.url, first.url]) {
      const visitor = new TestClient(server);
      for (const url of urls) expect((await visitor.request(url)).status, `${server}${url}`).toBe(404);
    }
    // The owner too: the URLs are dead, not merely checked (a CDN could still hold them).
    for (const url of urls) expect((await ownerOnSecond.request(url)).status).toBe(404);
  });

  it("gets new URLs, and never the old ones again, when it is made public again", async () => {
    const photo = await publicPhotoOf("exif-samples/jpg/Canon_40D.jpg");
    const firstUrls = photo.variants.map((variant) => variant.url);
    const privateAgain = await setVisibility(ownerOnSecond, photo.id, "private");
    const republished = await setVisibility(ownerOnSecond, photo.id, "public");
    const republishedUrls = republished.variants.map((variant) => variant.url);
    for (const url of republishedUrls) expect(firstUrls).not.toContain(url);
    // While private it was served at the URLs it keeps when public again: those were never public before.
    expect(republishedUrls).toEqual(privateAgain.variants.map((variant) => variant.url));
    const visitor = new TestClient(first.url);
    for (const url of firstUrls) expect((await visitor.request(url)).status).toBe(404);
    for (const url of republishedUrls) expect((await visitor.request(url)).status).toBe(200);
  });

  it("tells the CDN every public URL it had, as absolute URLs, when it is made private or deleted", async () => {
    const madePrivate = await publicPhotoOf("exif-samples/jpg/Nikon_D70.jpg");
    await setVisibility(ownerOnSecond, madePrivate.id, "private");
    const privateUrls = madePrivate.variants.map((variant) => `${second.url}${variant.url}`);
    await waitFor(() => privateUrls.every((url) => receiver.purged.includes(url)));

    const deleted = await publicPhotoOf("exif-samples/jpg/Sony_HDR-HC3.jpg");
    expect((await ownerOnFirst.request(`/api/photos/${deleted.id}`, { method: "DELETE" })).status).toBe(204);
    const deletedUrls = deleted.variants.map((variant) => `${first.url}${variant.url}`);
    await waitFor(() => deletedUrls.every((url) => receiver.purged.includes(url)));
    for (const url of deletedUrls) expect((await new TestClient(second.url).request(url.slice(first.url.length))).status).toBe(404);
  });

  it("deleted with its owner on one instance, is refused by both from the next request on, and the CDN hears of it", async () => {
    const editor = await createTestUser(ownerOnFirst, "editor");
    const editorOnFirst = new TestClient(first.url);
    await editorOnFirst.signIn(editor.email, editor.password);
    const uploaded = await uploadCorpusFile(editorOnFirst, "exif-samples/jpg/Olympus_C8080WZ.jpg");
    const ready = await waitForProcessing(editorOnFirst, uploaded.id);
    expect(ready.status).toBe("ready");
    await setVisibility(editorOnFirst, ready.id, "public");
    const urls = (await waitForProcessing(editorOnFirst, ready.id)).variants.map((variant) => variant.url);
    await warmBothCaches(urls);

    expect((await ownerOnSecond.request(`/api/admin/users/${editor.id}`, { method: "DELETE" })).status).toBe(204);
    for (const server of [first.url, second.url]) {
      const visitor = new TestClient(server);
      for (const url of urls) expect((await visitor.request(url)).status, `${server}${url}`).toBe(404);
    }
    const absoluteUrls = urls.map((url) => `${second.url}${url}`);
    await waitFor(() => absoluteUrls.every((url) => receiver.purged.includes(url)));
  });

  it("does not purge anything for a photo that was never public", async () => {
    const uploaded = await uploadCorpusFile(ownerOnFirst, "exif-samples/jpg/Kodak_CX7530.jpg");
    const photo = await waitForProcessing(ownerOnFirst, uploaded.id);
    await setVisibility(ownerOnFirst, photo.id, "members");
    expect((await ownerOnFirst.request(`/api/photos/${photo.id}`, { method: "DELETE" })).status).toBe(204);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.purged.filter((url) => url.includes(photo.id))).toEqual([]);
  });
});

// The visitor's gallery HTML is kept in memory by each instance (src/server/anonymous-pages.ts):
// it must follow the photos as closely as the hot media cache follows their bytes.
describe("the visitor's gallery page, kept in memory by each instance", () => {
  async function visitorGallery(server: string): Promise<string> {
    const answer = await new TestClient(server).request("/");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=30, stale-while-revalidate=60");
    return answer.text();
  }

  /** Asks each instance until it answers from memory (its worker may still be finishing a photo, which drops the copy). */
  async function warmBothGalleries(): Promise<string[]> {
    const pages: string[] = [];
    for (const server of [first.url, second.url]) {
      for (let attempt = 0; ; attempt += 1) {
        const answer = await new TestClient(server).request("/");
        const page = await answer.text();
        // An answer from memory carries its length; Next.js streams a rendered page in chunks.
        if (answer.headers.get("content-length") !== null) {
          pages.push(page);
          break;
        }
        if (attempt === 20) throw new Error(`${server} never answered / from memory`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    return pages;
  }

  it("drops a photo made private at once on its instance, and on the other once it reads the access version again (at most a second)", async () => {
    const photo = await publicPhotoOf("exif-samples/jpg/Fujifilm_FinePix_E500.jpg");
    for (const page of await warmBothGalleries()) expect(page).toContain(`/p/${photo.id}`);

    await setVisibility(ownerOnSecond, photo.id, "private");
    expect(await visitorGallery(second.url)).not.toContain(`/p/${photo.id}`);
    // The one-second bound is the unit test's (src/server/anonymous-pages.test.ts, with its own clock);
    // here the other instance must drop it with no change of its own. Its bytes are refused at once (above).
    await expect.poll(async () => visitorGallery(first.url), { timeout: 10_000, interval: 200 }).not.toContain(`/p/${photo.id}`);
  });

  it("shows a new public photo, an edit and a deletion made on this instance at once", async () => {
    await warmBothGalleries();
    const photo = await publicPhotoOf("exif-samples/jpg/Canon_DIGITAL_IXUS_400.jpg");
    expect(await visitorGallery(first.url)).toContain(`/p/${photo.id}`);

    const altText = "A lighthouse in a gale, newly described";
    const edited = await ownerOnFirst.request(`/api/photos/${photo.id}`, { method: "PATCH", body: { json: { altText } } });
    expect(edited.status).toBe(200);
    expect(await visitorGallery(first.url)).toContain(altText);

    expect((await ownerOnFirst.request(`/api/photos/${photo.id}`, { method: "DELETE" })).status).toBe(204);
    expect(await visitorGallery(first.url)).not.toContain(`/p/${photo.id}`);
    // Deleting a public photo moves the access version, so the other instance drops its copy too.
    await expect.poll(async () => visitorGallery(second.url), { timeout: 10_000, interval: 200 }).not.toContain(`/p/${photo.id}`);
  });

  it("never keeps or shares a page for someone with a session cookie, valid or not", async () => {
    const uploaded = await uploadCorpusFile(ownerOnFirst, "exif-samples/jpg/Panasonic_DMC-FZ30.jpg");
    const privatePhoto = await waitForProcessing(ownerOnFirst, uploaded.id);
    await warmBothGalleries();

    const ownersPage = await ownerOnFirst.request("/");
    expect(ownersPage.headers.get("cache-control")).toContain("no-store");
    expect(await ownersPage.text()).toContain(`/p/${privatePhoto.id}`);
    expect(await visitorGallery(first.url)).not.toContain(`/p/${privatePhoto.id}`);

    const withStaleCookie = await new TestClient(first.url).request("/", { headers: { Cookie: "next-auth.session-token=expired-or-forged" } });
    expect(withStaleCookie.status).toBe(200);
    expect(withStaleCookie.headers.get("cache-control") ?? "").not.toContain("public");
    expect(withStaleCookie.headers.get("content-length")).toBeNull();
    await withStaleCookie.arrayBuffer();
  });
});
