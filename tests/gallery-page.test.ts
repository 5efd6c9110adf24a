import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { AVIF_MAX_WIDTH, planVariantWidths } from "@/src/images/variant-plan";
import { countFirstScreen, FIRST_SCREEN_PHONE, largestOnFirstScreen, LIGHTHOUSE_PHONE } from "@/src/photos/grid-loading";
import { CORPUS, corpusFile, uploadFiles, type UploadedPhoto, waitForProcessing } from "./helpers/photos";
import { startTestApp, type TestApp, testStorageFromEnvironment } from "./helpers/test-app";
import { TestClient } from "./helpers/test-client";
import { TEST_SECRET } from "./setup/global-setup";

// The gallery page `/` (issue 12, light pages): what a visitor downloads per photo, and who may get
// a shared, cacheable copy of it.

const TILE = /data-testid="grid-photo"/g;
// The budget for the page's HTML, markup and RSC payload together, per photo shown.
const MAX_HTML_BYTES_PER_TILE = 1536;

/** The corpus's decodable photos (JPEG and HEIC, the broken ones left out), in a stable order. */
function corpusPhotos(): string[] {
  const found: string[] = [];
  const walk = (directory: string) => {
    for (const entry of fs.readdirSync(path.join(CORPUS, directory), { withFileTypes: true })) {
      const relative = path.join(directory, entry.name);
      if (entry.isDirectory() && entry.name !== "invalid") walk(relative);
      else if (/\.(jpe?g|heic|heif)$/i.test(entry.name) && !entry.name.startsWith("corrupted")) found.push(relative);
    }
  };
  walk("exif-samples");
  return found.sort();
}

/** Waits until every AVIF size the plan makes for this photo exists, so the page is measured as it will stay. */
async function waitForEveryAvif(client: TestClient, id: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const { photo } = (await (await client.request(`/api/photos/${id}`)).json()) as { photo: { width: number | null; variants: Array<{ format: string }> } };
    const planned = photo.width ? planVariantWidths(photo.width).filter((width) => width <= AVIF_MAX_WIDTH).length : 0;
    if (planned > 0 && photo.variants.filter((variant) => variant.format === "avif").length === planned) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`Photo ${id} does not have all its AVIF sizes after two minutes`);
}

const OWNER = { email: "gallery-owner@example.test", password: "gallery-owner-password" };

describe("the gallery page", () => {
  // An app of its own: the other test files' photos would otherwise be on the page measured.
  let app: TestApp;
  let owner: TestClient;
  let privateId: string;
  const visitor = () => new TestClient(app.url);

  beforeAll(async () => {
    app = await startTestApp(inject("databaseKind"), {
      NEXTAUTH_SECRET: TEST_SECRET,
      ADMIN_EMAIL: OWNER.email,
      ADMIN_PASSWORD: OWNER.password,
      ...testStorageFromEnvironment(inject("storageConfig").kind).env,
    });
    // Thirty public photos of the real corpus (small and large, landscape and portrait) and one
    // private one, all processed before the page is measured.
    owner = new TestClient(app.url);
    await owner.signIn(OWNER.email, OWNER.password);
    const files = corpusPhotos().slice(0, 31);
    expect(files).toHaveLength(31);
    const ids: string[] = [];
    for (const file of files) {
      const response = await uploadFiles(owner, [{ bytes: corpusFile(file), name: path.basename(file), type: /\.jpe?g$/i.test(file) ? "image/jpeg" : "image/heic" }]);
      expect(response.status, file).toBe(201);
      ids.push(((await response.json()) as { photos: UploadedPhoto[] }).photos[0].id);
    }
    for (const id of ids) expect((await waitForProcessing(owner, id)).status).toBe("ready");
    // AVIF is the last phase, after a photo turns ready: measure the page as it will stay.
    for (const id of ids) await waitForEveryAvif(owner, id);
    // The owner's newest photo stays private, so it is on the owner's first page.
    const newest = (await (await owner.request("/api/photos?owner=me&limit=1")).json()) as { photos: Array<{ id: string }> };
    privateId = newest.photos[0].id;
    for (const id of ids.filter((candidate) => candidate !== privateId)) {
      const response = await owner.request(`/api/photos/${id}`, { method: "PATCH", body: { json: { visibility: "public" } } });
      expect(response.status).toBe(200);
    }
  }, 300_000);
  afterAll(() => app?.stop());

  it(`sends a visitor at most ${MAX_HTML_BYTES_PER_TILE} bytes of HTML per photo for a page of 30`, async () => {
    const html = await (await visitor().request("/")).text();
    const tiles = html.match(TILE)?.length ?? 0;
    expect(tiles).toBe(30);
    const bytesPerTile = Buffer.byteLength(html) / tiles;
    console.log(`gallery HTML: ${Buffer.byteLength(html)} bytes for ${tiles} tiles, ${Math.round(bytesPerTile)} per tile`);
    expect(bytesPerTile).toBeLessThanOrEqual(MAX_HTML_BYTES_PER_TILE);
    // The blurred previews are decoded in the browser, not carried as images in the page.
    expect(html).not.toContain("data:image/png");
  });

  it("names every photo for a screen reader and offers AVIF, with one JPEG for browsers without it", async () => {
    const html = await (await visitor().request("/")).text();
    const images = [...html.matchAll(/<img [^>]*>/g)].map((match) => match[0]);
    expect(images).toHaveLength(30);
    for (const image of images) expect(image).toMatch(/ alt="[^"]+"/);
    expect(html.match(/<source type="image\/avif"/g)).toHaveLength(30);
    for (const image of images) expect(image).not.toContain("srcSet");
    expect(html).not.toContain('type="image/webp"');
  });

  it("loads a phone's whole first screen at once (its largest tile at high priority) and the tiles below it lazily", async () => {
    const html = await (await visitor().request("/")).text();
    const tiles = [...html.matchAll(/<a [^>]*data-testid="grid-photo"[^>]*>.*?<\/a>/gs)].map((match) => match[0]);
    expect(tiles).toHaveLength(30);
    const ratios = tiles.map((tile) => Number(/--ar:([0-9.]+)/.exec(tile)?.[1]));
    const isHigh = tiles.map((tile) => /fetchpriority="high"/i.test(tile));
    const isLazy = tiles.map((tile) => tile.includes('loading="lazy"'));
    // Lighthouse's LCP is the largest tile on its phone's first screen, wherever it is (the 5th on
    // some pages): fetched at high priority, with at most one other.
    const [largest] = largestOnFirstScreen(ratios, LIGHTHOUSE_PHONE, 1);
    expect(isHigh[largest!]).toBe(true);
    expect(isHigh.filter(Boolean).length).toBeLessThanOrEqual(2);
    // Every tile of a large phone's first screen is eager, and lazy starts right after it.
    const firstScreen = countFirstScreen(ratios, FIRST_SCREEN_PHONE);
    expect(isLazy.slice(0, firstScreen).some(Boolean)).toBe(false);
    expect(isLazy.slice(firstScreen).every(Boolean)).toBe(true);
    expect(firstScreen).toBeLessThan(30);
  });

  it("gives every tile and the photo page's image their shape before the image arrives (no layout shift)", async () => {
    const html = await (await visitor().request("/")).text();
    const tiles = [...html.matchAll(/<a [^>]*data-testid="grid-photo"[^>]*>/g)].map((match) => match[0]);
    for (const tile of tiles) expect(tile).toMatch(/style="--ar:[0-9.]+[;"]/);
    const photoPath = /href="(\/p\/[^"?]+)"/.exec(html)?.[1];
    const photoPage = await (await visitor().request(photoPath ?? "/missing")).text();
    const image = /<img [^>]*data-testid="photo-image"[^>]*>/.exec(photoPage)?.[0] ?? "";
    expect(image).toMatch(/ width="\d+"/);
    expect(image).toMatch(/ height="\d+"/);
    expect(image).toMatch(/fetchpriority="high"/i);
    expect(image).not.toContain('loading="lazy"');
  });

  it("lets a CDN share the page for visitors, never for someone signed in", async () => {
    const anonymous = await visitor().request("/", { headers: { "Accept-Encoding": "gzip" } });
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=30, stale-while-revalidate=60");
    expect(anonymous.headers.get("vary")).toMatch(/\bCookie\b/);
    expect(anonymous.headers.get("content-encoding")).toBe("gzip");
    await anonymous.arrayBuffer();

    const signedIn = await owner.request("/");
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get("cache-control")).toContain("no-store");
    expect(signedIn.headers.get("cache-control")).not.toContain("public");
    expect(await signedIn.text()).toContain(`/p/${privateId}`);

    // A client-side navigation answers for its router state: not shared either.
    const navigation = await visitor().request("/", { headers: { RSC: "1" } });
    expect(navigation.headers.get("cache-control") ?? "").not.toContain("public");
    await navigation.arrayBuffer();
  });

  it("compresses the API's JSON too", async () => {
    const response = await visitor().request("/api/photos", { headers: { "Accept-Encoding": "gzip" } });
    expect(response.headers.get("content-encoding")).toBe("gzip");
    await response.arrayBuffer();
  });

  it("shows its owner a badge on a photo visitors cannot see, and visitors nothing of it", async () => {
    const ownPage = await (await owner.request("/")).text();
    const privateTile = ownPage.match(new RegExp(`<a[^>]*href="/p/${privateId}"[^>]*>.*?</a>`, "s"))?.[0] ?? "";
    expect(privateTile).toContain('class="badge grid-badge">Private<');
    const visitorPage = await (await visitor().request("/")).text();
    expect(visitorPage).not.toContain(privateId);
    expect(visitorPage).not.toContain("grid-badge");
  });
});
