import sharp from "sharp";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { readPageMeta, waitForOgImage } from "./helpers/page-meta";
import { uploadCorpusFile, waitForProcessing } from "./helpers/photos";
import { createPrivacyWorld, expectNoSecrets, type PrivacyWorld } from "./helpers/privacy-world";
import { signedInAs, type TestClient } from "./helpers/test-client";

// oEmbed (https://oembed.com, section 2) for public photos (type photo) and albums (type rich), found
// through discovery links on their pages only. Everything else answers one 404 (SECURITY.md 43).

const baseUrl = inject("baseUrl");
let world: PrivacyWorld;

type Answer = Record<string, unknown>;

/** WordPress discovers oEmbed in the first part of a page up to </head> only. */
const WORDPRESS = "WordPress/6.7; https://blog.example";

function oembedPath(url: string, extra: Record<string, string> = {}): string {
  return `/oembed?${new URLSearchParams({ url, ...extra })}`;
}

async function oembed(client: TestClient, url: string, extra: Record<string, string> = {}): Promise<{ status: number; body: Answer; response: Response }> {
  const response = await client.request(oembedPath(url, extra));
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Answer) : {}, response };
}

/** The spec's required fields for every type, and the provider's own. */
function expectCommonFields(body: Answer): void {
  expect(body.version).toBe("1.0");
  expect(typeof body.title).toBe("string");
  expect(body.provider_name).toBeTruthy();
  expect(body.provider_url).toBe(`${baseUrl}/`);
  expect(typeof body.cache_age).toBe("number");
  // The thumbnail fields come together or not at all.
  const thumbnail = [body.thumbnail_url, body.thumbnail_width, body.thumbnail_height].filter((value) => value !== undefined);
  expect([0, 3]).toContain(thumbnail.length);
}

beforeAll(async () => {
  world = await createPrivacyWorld("oembed");
  await waitForOgImage((path) => world.visitor.request(path), `/p/${world.photos.public.id}`);
}, 240_000);

describe("a public photo", () => {
  it("is type photo with a JPEG variant, its size, title and thumbnail, cached publicly for a short while", async () => {
    const { id, word } = world.photos.public;
    const { status, body, response } = await oembed(world.visitor, `${baseUrl}/p/${id}`);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(response.headers.get("cache-control")).toBe("public, max-age=300");
    expectCommonFields(body);
    expect(body.type).toBe("photo");
    expect(body.title).toContain(word);
    expect(String(body.url).startsWith(`${baseUrl}/media/`)).toBe(true);
    expect(body.thumbnail_url).toBeTruthy();
    const image = await world.visitor.request(String(body.url));
    expect(image.status).toBe(200);
    const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
    expect(meta.format).toBe("jpeg");
    expect([meta.width, meta.height]).toEqual([body.width, body.height]);
    expectNoSecrets(JSON.stringify(body), world.secretsHiddenFrom("visitor"), "the public photo's oEmbed");
  });

  it("respects maxwidth and maxheight, and answers 404 when no size fits", async () => {
    const url = `${baseUrl}/p/${world.photos.public.id}`;
    for (const limits of [{ maxwidth: "500" }, { maxwidth: "900", maxheight: "500" }, { maxheight: "700" }] as Array<Record<string, string>>) {
      const { status, body } = await oembed(world.visitor, url, limits);
      expect(status, JSON.stringify(limits)).toBe(200);
      if (limits.maxwidth) expect(body.width as number).toBeLessThanOrEqual(Number(limits.maxwidth));
      if (limits.maxheight) expect(body.height as number).toBeLessThanOrEqual(Number(limits.maxheight));
      if (body.thumbnail_width !== undefined && limits.maxwidth) expect(body.thumbnail_width as number).toBeLessThanOrEqual(Number(limits.maxwidth));
    }
    expect((await oembed(world.visitor, url, { maxwidth: "40" })).status).toBe(404);
  });

  it("is found through the discovery link in its page's <head> (WordPress reads no further), with the query as the spec writes it", async () => {
    const html = await (await world.visitor.request(`/p/${world.photos.public.id}`, { headers: { "User-Agent": WORDPRESS } })).text();
    const [link] = readPageMeta(html, { headOnly: true }).oembedLinks;
    expect(link).toBe(`${baseUrl}/oembed?url=${encodeURIComponent(`${baseUrl}/p/${world.photos.public.id}`)}&format=json`);
    const response = await world.visitor.request(link);
    expect(response.status).toBe(200);
    expect(((await response.json()) as Answer).type).toBe("photo");
  });
});

describe("a public album", () => {
  let owner: TestClient;
  let album: { id: string; slug: string; title: string };

  beforeAll(async () => {
    ({ client: owner } = await signedInAs("editor"));
    const uploaded = await uploadCorpusFile(owner, "exif-samples/jpg/Pentax_K10D.jpg");
    expect((await waitForProcessing(owner, uploaded.id)).status).toBe("ready");
    expect((await owner.request(`/api/photos/${uploaded.id}`, { method: "PATCH", body: { json: { visibility: "public" } } })).status).toBe(200);
    await waitForOgImage((path) => owner.request(path), `/p/${uploaded.id}`);
    const created = await owner.request("/api/albums", { body: { json: { title: `Quotes "<b>&'</b>" ${Date.now()}`, visibility: "public" } } });
    expect(created.status, await created.clone().text()).toBe(201);
    album = ((await created.json()) as { album: typeof album }).album;
    expect((await owner.request(`/api/albums/${album.id}/photos`, { body: { json: { photoIds: [uploaded.id] } } })).status).toBe(200);
  }, 120_000);

  it("is type rich with an escaped html snippet linking the album's image, within maxwidth", async () => {
    const { status, body } = await oembed(world.visitor, `${baseUrl}/albums/${album.slug}`, { maxwidth: "300" });
    expect(status, JSON.stringify(body)).toBe(200);
    expectCommonFields(body);
    expect(body.type).toBe("rich");
    expect(body.width as number).toBeLessThanOrEqual(300);
    expect(body.height as number).toBeGreaterThan(0);
    const html = String(body.html);
    expect(html).toContain(`href="${baseUrl}/albums/${album.slug}"`);
    expect(html).not.toContain("<b>");
    expect(html).not.toMatch(/<script|javascript:|on\w+=/i);
    const image = /<img src="([^"]+)"/.exec(html)?.[1];
    expect(image?.startsWith(`${baseUrl}/og/album/${album.id}/`)).toBe(true);
    const response = await world.visitor.request(image!);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/jpeg");
  });

  it("the privacy world's public album shows only what is public", async () => {
    const { status, body } = await oembed(world.visitor, `${baseUrl}/albums/${world.publicAlbum.slug}`);
    expect(status).toBe(200);
    expect(body.title).toBe(world.publicAlbum.title);
    expectNoSecrets(JSON.stringify(body), world.secretsHiddenFrom("visitor"), "the public album's oEmbed");
    const html = await (await world.visitor.request(`/albums/${world.publicAlbum.slug}`, { headers: { "User-Agent": WORDPRESS } })).text();
    expect(readPageMeta(html, { headOnly: true }).oembedLinks).toHaveLength(1);
  });
});

describe("everything else", () => {
  it("answers the same 404 for photos and albums that are not public, whoever asks", async () => {
    const urls = [
      ...(["unlisted", "members", "private"] as const).map((visibility) => `${baseUrl}/p/${world.photos[visibility].id}`),
      `${baseUrl}/albums/${world.privateAlbum.slug}`,
      world.share.url,
      `${baseUrl}/p/00000000-0000-4000-8000-000000000000`,
      `${baseUrl}/albums/no-such-album`,
    ];
    for (const client of [world.visitor, world.member, world.owner]) {
      for (const url of urls) {
        const { status, body } = await oembed(client, url);
        expect(status, url).toBe(404);
        expect(body).toEqual({ error: { code: "NOT_FOUND", message: "There is no public photo or album at that URL." } });
      }
    }
  });

  it("has no discovery link on pages that are not public", async () => {
    for (const [client, path] of [
      [world.visitor, `/p/${world.photos.unlisted.id}`],
      [world.member, `/p/${world.photos.members.id}`],
      [world.owner, `/p/${world.photos.private.id}`],
      [world.owner, `/albums/${world.privateAlbum.slug}`],
    ] as const) {
      const response = await client.request(path);
      expect(response.status, path).toBe(200);
      expect(readPageMeta(await response.text()).oembedLinks, path).toEqual([]);
    }
  });

  it("refuses hostile urls: other hosts and schemes 404, malformed ones 400", async () => {
    const publicPath = `/p/${world.photos.public.id}`;
    const notFound = [
      `http://evil.example${publicPath}`,
      `${baseUrl.replace("127.0.0.1", "localhost")}${publicPath}`,
      `https://user:pass@${new URL(baseUrl).host}${publicPath}`,
      "javascript:alert(1)",
      `data:text/html,<script>alert(1)</script>`,
      `${baseUrl}/oembed?url=${encodeURIComponent(baseUrl + publicPath)}`,
      `${baseUrl}/p/${world.photos.public.id}/../../admin`,
      `${baseUrl}/media/x`,
    ];
    for (const url of notFound) expect((await oembed(world.visitor, url)).status, url).toBe(404);
    const badRequest = ["", "//evil.example/p/x", "not a url", `/p/${world.photos.public.id}`, `${baseUrl}/p/${"x".repeat(3000)}`];
    for (const url of badRequest) expect((await oembed(world.visitor, url)).status, url.slice(0, 60)).toBe(400);
    expect((await world.visitor.request("/oembed")).status).toBe(400);
  });

  it("answers 400 for a malformed size and 501 for format=xml", async () => {
    const url = `${baseUrl}/p/${world.photos.public.id}`;
    for (const maxwidth of ["abc", "-5", "0", "1e3", "99999999"]) expect((await oembed(world.visitor, url, { maxwidth })).status, maxwidth).toBe(400);
    expect((await oembed(world.visitor, url, { format: "xml" })).status).toBe(501);
    expect((await oembed(world.visitor, url, { format: "json" })).status).toBe(200);
  });
});
