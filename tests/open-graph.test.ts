import sharp from "sharp";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { createStorage } from "@/src/storage/create-storage";
import { metaValue, type PageMeta, readPageMeta, waitForOgImage } from "./helpers/page-meta";
import { uploadCorpusFile, waitForProcessing } from "./helpers/photos";
import { createPrivacyWorld, expectNoSecrets, type PrivacyWorld } from "./helpers/privacy-world";
import { signedInAs, type TestClient } from "./helpers/test-client";

// Open Graph images and og:/twitter: tags (SECURITY.md 43): public photos, albums, tags and the home
// page publish a 1200x630 JPEG made once from JPEG variants of public photos; unlisted, members-only
// and private ones publish nothing that names or shows them, whoever asks.

const baseUrl = inject("baseUrl");
let world: PrivacyWorld;

/** Facebook's, Slack's and Discord's previews: Next.js answers crawlers it knows with metadata in <head>. */
const PREVIEW_BOT = "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)";

/** The page's tags as a preview crawler reads them (in <head>); `browser`: anywhere in a browser's answer. */
async function pageMeta(client: TestClient, path: string, { browser = false } = {}): Promise<PageMeta> {
  const response = await client.request(path, browser ? {} : { headers: { "User-Agent": PREVIEW_BOT } });
  const html = await response.text();
  expect(response.status, `${path}: ${html.slice(0, 200)}`).toBe(200);
  return readPageMeta(html, { headOnly: !browser });
}

/** The stored Open Graph images under a prefix ("og/photo/<id>/"). */
async function storedImages(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of createStorage(inject("storageConfig")).list(prefix)) keys.push(object.key);
  return keys.sort();
}

function ogImagePath(meta: PageMeta): string {
  const image = metaValue(meta, "og:image");
  expect(image, meta.text).toBeTruthy();
  expect(image!.startsWith(`${baseUrl}/og/`), image).toBe(true);
  return new URL(image!).pathname;
}

async function fetchImage(client: TestClient, path: string): Promise<{ response: Response; bytes: Buffer }> {
  const response = await client.request(path);
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

async function patchPhoto(owner: TestClient, id: string, changes: Record<string, unknown>): Promise<void> {
  const response = await owner.request(`/api/photos/${id}`, { method: "PATCH", body: { json: changes } });
  expect(response.status, await response.clone().text()).toBe(200);
}

beforeAll(async () => {
  world = await createPrivacyWorld("opengraph");
  await waitForOgImage((path) => world.visitor.request(path), `/p/${world.photos.public.id}`);
}, 240_000);

describe("a public photo's page", () => {
  it("has og: and twitter: tags with an absolute URL and a 1200x630 image, for a visitor", async () => {
    const { id, word } = world.photos.public;
    const meta = await pageMeta(world.visitor, `/p/${id}`);
    expect(metaValue(meta, "og:title")).toContain(word);
    expect(metaValue(meta, "og:description")).toContain(word);
    expect(metaValue(meta, "og:url")).toBe(`${baseUrl}/p/${id}`);
    expect(metaValue(meta, "og:type")).toBe("article");
    expect(metaValue(meta, "og:site_name")).toBeTruthy();
    expect(metaValue(meta, "og:image:width")).toBe("1200");
    expect(metaValue(meta, "og:image:height")).toBe("630");
    expect(metaValue(meta, "og:image:alt")).toContain(word);
    expect(metaValue(meta, "twitter:card")).toBe("summary_large_image");
    expect(metaValue(meta, "twitter:title")).toContain(word);
    // X reads the image from og:image when twitter:image is absent (saves its four tags twice a page).
    expect(meta.tags.has("twitter:image")).toBe(false);
    expect(ogImagePath(meta)).toMatch(new RegExp(`^/og/photo/${id}/[0-9a-f]{32}\\.jpg$`));
  });

  it("takes its addresses from NEXTAUTH_URL, never from the Host header", async () => {
    const meta = readPageMeta(await (await world.visitor.request(`/p/${world.photos.public.id}`, { headers: { Host: "evil.example", "X-Forwarded-Host": "evil.example" } })).text());
    expect(meta.text).not.toContain("evil.example");
    expect(metaValue(meta, "og:url")).toBe(`${baseUrl}/p/${world.photos.public.id}`);
  });

  it("serves its image as a 1200x630 JPEG, made once and then read from storage, cached for a year", async () => {
    const path = ogImagePath(await pageMeta(world.visitor, `/p/${world.photos.public.id}`));
    const first = await fetchImage(world.visitor, path);
    expect(first.response.status).toBe(200);
    expect(first.response.headers.get("content-type")).toBe("image/jpeg");
    expect(first.response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const meta = await sharp(first.bytes).metadata();
    expect(meta).toMatchObject({ format: "jpeg", width: 1200, height: 630 });
    expect(meta.exif).toBeUndefined();

    const second = await fetchImage(world.visitor, path);
    expect(second.response.status).toBe(200);
    // Made by the first request (or one before it), never again: the second comes from storage.
    expect(second.response.headers.get("x-og-image")).toBe("stored");
    expect(second.bytes.equals(first.bytes)).toBe(true);
    expect(await storedImages(`og/photo/${world.photos.public.id}/`)).toEqual([path.slice(1)]);
  });

  it("answers 404 for an image of the photo that is not its current one, or a path never handed out", async () => {
    const { id } = world.photos.public;
    for (const path of [
      `/og/photo/${id}/${"0".repeat(32)}.jpg`,
      `/og/photo/${id}/../../media/x.jpg`,
      "/og/photo/not-an-id/0123456789abcdef0123456789abcdef.jpg",
      `/og/photo/${id}`,
      `/og/site/other/${"0".repeat(32)}.jpg`,
      "/og/site/other/latest.jpg",
      `/og/album/${id}/latest.jpg`,
      `/og/share/${id}/${"0".repeat(32)}.jpg`,
    ]) {
      const response = await world.visitor.request(path);
      expect(response.status, path).toBe(404);
    }
  });
});

describe("pages that are not public", () => {
  it("publish nothing of an unlisted, members-only or private photo, for a visitor, a member or the owner", async () => {
    const cases: Array<{ client: TestClient; visibility: "unlisted" | "members" | "private"; who: string }> = [
      { client: world.visitor, visibility: "unlisted", who: "visitor" },
      { client: world.member, visibility: "members", who: "member" },
      { client: world.owner, visibility: "unlisted", who: "owner" },
      { client: world.owner, visibility: "members", who: "owner" },
      { client: world.owner, visibility: "private", who: "owner" },
    ];
    for (const [{ client, visibility, who }, browser] of cases.flatMap((each) => [[each, false], [each, true]] as const)) {
      const photo = world.photos[visibility];
      const meta = await pageMeta(client, `/p/${photo.id}`, { browser });
      const where = `${visibility} photo's tags for the ${who}${browser ? " (browser)" : ""}`;
      expectNoSecrets(meta.text, [photo.id, photo.word, photo.tag], where);
      expect(meta.tags.has("og:image"), where).toBe(false);
      expect(meta.tags.has("twitter:image"), where).toBe(false);
      expect(meta.oembedLinks, where).toEqual([]);
      expect(metaValue(meta, "og:title"), where).toBeTruthy();
      expect(metaValue(meta, "twitter:card"), where).toBe("summary");
    }
  });

  it("answer 404 to a visitor for the private photo's page, and publish nothing of the private album to its owner", async () => {
    expect((await world.visitor.request(`/p/${world.photos.private.id}`)).status).toBe(404);
    const meta = await pageMeta(world.owner, `/albums/${world.privateAlbum.slug}`);
    expectNoSecrets(meta.text, [world.privateAlbum.id, world.privateAlbum.word], "the private album's tags");
    expect(meta.tags.has("og:image")).toBe(false);
    expect(meta.oembedLinks).toEqual([]);
  });

  it("publish nothing of a tag whose photos are not public", async () => {
    const meta = await pageMeta(world.owner, `/tags/${world.photos.private.tag.toLowerCase()}`);
    expectNoSecrets(meta.text, [world.photos.private.tag, world.photos.private.word], "the private photo's tag page");
    expect(meta.tags.has("og:image")).toBe(false);
  });
});

describe("albums, tags and the home page", () => {
  it("a public album's image shows only its public photos (here: exactly the public photo's own image)", async () => {
    const meta = await pageMeta(world.visitor, `/albums/${world.publicAlbum.slug}`);
    expect(metaValue(meta, "og:title")).toBe(world.publicAlbum.title);
    expect(metaValue(meta, "og:url")).toBe(`${baseUrl}/albums/${world.publicAlbum.slug}`);
    expectNoSecrets(meta.text, world.secretsHiddenFrom("visitor"), "the public album's tags");
    const albumPath = ogImagePath(meta);
    expect(albumPath).toMatch(new RegExp(`^/og/album/${world.publicAlbum.id}/[0-9a-f]{32}\\.jpg$`));
    const album = await fetchImage(world.visitor, albumPath);
    expect(album.response.status).toBe(200);
    expect(await sharp(album.bytes).metadata()).toMatchObject({ format: "jpeg", width: 1200, height: 630 });
    // The album holds all four photos; only the public one may be drawn, so the collage is that
    // one photo alone, made from the same variant: pixel for pixel the photo's own image.
    const photoPath = ogImagePath(await pageMeta(world.visitor, `/p/${world.photos.public.id}`));
    const photo = await fetchImage(world.visitor, photoPath);
    const [albumPixels, photoPixels] = await Promise.all([sharp(album.bytes).raw().toBuffer(), sharp(photo.bytes).raw().toBuffer()]);
    expect(albumPixels.equals(photoPixels)).toBe(true);
  });

  it("a tag with a public photo has its image; the home page has the site's collage at its one address", { timeout: 180_000 }, async () => {
    const { tag } = world.photos.public;
    const tagMeta = await pageMeta(world.visitor, `/tags/${tag.toLowerCase()}`);
    expect(metaValue(tagMeta, "og:title")).toContain(tag);
    expect(ogImagePath(tagMeta)).toMatch(/^\/og\/tag\/[0-9a-f-]{36}\/[0-9a-f]{32}\.jpg$/);
    expect((await fetchImage(world.visitor, ogImagePath(tagMeta))).response.status).toBe(200);

    // The layout's tags, with the site's collage at the address that follows its newest photos.
    const home = await pageMeta(world.visitor, "/");
    expect(metaValue(home, "og:site_name")).toBeTruthy();
    expectNoSecrets(home.text, world.secretsHiddenFrom("visitor"), "the home page's tags");
    expect(ogImagePath(home)).toBe("/og/site/home/latest.jpg");
    // The collage shows the newest public photos that can be drawn; on the shared test server the
    // newest may be other files' photos whose larger variants are still queued, so it may take a
    // while to appear (it never shows a blurry one).
    let image = await fetchImage(world.visitor, "/og/site/home/latest.jpg");
    for (const deadline = Date.now() + 120_000; image.response.status === 404 && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      image = await fetchImage(world.visitor, "/og/site/home/latest.jpg");
    }
    expect(image.response.status).toBe(200);
    expect(await sharp(image.bytes).metadata()).toMatchObject({ format: "jpeg", width: 1200, height: 630 });
    // It follows the newest photos, so it is shared no longer than the gallery page itself.
    expect(image.response.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=30, stale-while-revalidate=60");
    expect(image.response.headers.get("etag")).toMatch(/^"og-[0-9a-f]{32}"$/);
  });
});

describe("when a photo changes", () => {
  let owner: TestClient;
  let photoId: string;

  beforeAll(async () => {
    ({ client: owner } = await signedInAs("editor"));
    const uploaded = await uploadCorpusFile(owner, "exif-samples/jpg/Canon_40D.jpg");
    expect((await waitForProcessing(owner, uploaded.id)).status).toBe("ready");
    photoId = uploaded.id;
    await patchPhoto(owner, photoId, { visibility: "public", title: "Before" });
    await waitForOgImage((path) => owner.request(path), `/p/${photoId}`);
  }, 120_000);

  it("keeps its image when only the words change (the image shows no text), and the image dies when it stops being public", async () => {
    const before = ogImagePath(await pageMeta(owner, `/p/${photoId}`));
    expect((await fetchImage(owner, before)).response.status).toBe(200);

    await patchPhoto(owner, photoId, { title: "After" });
    const retitled = await pageMeta(owner, `/p/${photoId}`);
    expect(metaValue(retitled, "og:title")).toBe("After");
    expect(ogImagePath(retitled)).toBe(before);
    expect((await fetchImage(owner, before)).response.headers.get("x-og-image")).toBe("stored");

    await patchPhoto(owner, photoId, { visibility: "private" });
    expect((await fetchImage(owner, before)).response.status).toBe(404);
    expect((await pageMeta(owner, `/p/${photoId}`)).tags.has("og:image")).toBe(false);

    // Public again: a new publication key, so a new address; the old one stays dead.
    await patchPhoto(owner, photoId, { visibility: "public" });
    const after = ogImagePath(await pageMeta(owner, `/p/${photoId}`));
    expect(after).not.toBe(before);
    expect((await fetchImage(owner, before)).response.status).toBe(404);
    const fresh = await fetchImage(owner, after);
    expect(fresh.response.status).toBe(200);
    expect(fresh.response.headers.get("x-og-image")).toBe("rendered");
    // One stored image per photo: the one of before is gone from storage too.
    expect(await storedImages(`og/photo/${photoId}/`)).toEqual([after.slice(1)]);
  });

  it("a trashed photo's image dies too", async () => {
    const path = ogImagePath(await pageMeta(owner, `/p/${photoId}`));
    expect((await fetchImage(owner, path)).response.status).toBe(200);
    const trashed = await owner.request(`/api/photos/${photoId}`, { method: "DELETE" });
    expect(trashed.status, await trashed.clone().text()).toBeLessThan(300);
    expect((await fetchImage(owner, path)).response.status).toBe(404);
  });

  it("deleting the photo for good deletes its stored image with its files", async () => {
    expect((await storedImages(`og/photo/${photoId}/`)).length).toBe(1);
    const emptied = await owner.request("/api/trash", { method: "DELETE", body: { json: { photoIds: [photoId] } } });
    expect(emptied.status, await emptied.clone().text()).toBe(200);
    const deadline = Date.now() + 30_000;
    while ((await storedImages(`og/photo/${photoId}/`)).length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await storedImages(`og/photo/${photoId}/`)).toEqual([]);
  });
});
