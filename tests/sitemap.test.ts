// The sitemap and robots.txt: valid against the sitemaps.org 0.9 schemas and Google's image sitemap
// schema (xmllint, offline, tests/fixtures/sitemap-schemas); only public photos, public albums and
// tags with public photos, for everyone (SECURITY.md 43, both ways); past the limit an index of parts
// walked by keyset, each within the limit, together every URL once.
import fs from "node:fs";
import path from "node:path";
import { XMLParser } from "fast-xml-parser";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { validateXML } from "xmllint-wasm";
import type { Database } from "@/src/db/database";
import { AppError } from "@/src/errors/app-error";
import type * as SitemapService from "@/src/sitemap/sitemap.service";
import { inGalleryOrder, type PhotoLibrary, seedPhotoLibrary } from "./helpers/photo-library";
import { createPrivacyWorld, expectNoSecrets, type PrivacyWorld } from "./helpers/privacy-world";
import { openFreshDatabase } from "./helpers/test-database";

const baseUrl = inject("baseUrl");
const databaseKind = inject("databaseKind");
const SCHEMAS = path.resolve(import.meta.dirname, "fixtures/sitemap-schemas");

function schemaFile(name: string) {
  return { fileName: name, contents: fs.readFileSync(path.join(SCHEMAS, name), "utf8") };
}

/** Validates a urlset (with image entries) or a sitemap index against the published schemas. */
async function expectValidSitemap(xml: string, kind: "urlset" | "index"): Promise<void> {
  const result = await validateXML({
    xml: [{ fileName: "sitemap.xml", contents: xml }],
    schema: kind === "urlset" ? [schemaFile("urlset-with-images.xsd")] : [schemaFile("siteindex.xsd")],
    preload: kind === "urlset" ? [schemaFile("sitemap.xsd"), schemaFile("sitemap-image.xsd")] : [],
  });
  expect(result.valid, result.rawOutput).toBe(true);
}

const parser = new XMLParser({ ignoreAttributes: false, parseTagValue: false, isArray: (name) => ["url", "sitemap", "image:image"].includes(name) });

interface ParsedUrl {
  loc: string;
  lastmod?: string;
  "image:image"?: Array<{ "image:loc": string }>;
}

function urlsOf(xml: string): ParsedUrl[] {
  return (parser.parse(xml) as { urlset: { url?: ParsedUrl[] } }).urlset.url ?? [];
}

describe("the sitemap over HTTP, and the privacy world (SECURITY.md 43)", () => {
  let world: PrivacyWorld;

  beforeAll(async () => {
    world = await createPrivacyWorld("sitemap");
  }, 240_000);

  for (const who of ["visitor", "member"] as const) {
    it(`${who}: /sitemap.xml validates and lists the public photo, album and tag, and nothing hidden`, async () => {
      const response = await world[who].request("/sitemap.xml");
      const xml = await response.text();
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^application\/xml/);
      expect(response.headers.get("cache-control")).toBe("public, max-age=300");
      await expectValidSitemap(xml, "urlset");
      expectNoSecrets(xml, world.secretsHiddenFrom("visitor"), `${who}'s sitemap`);
      const urls = urlsOf(xml);
      const locs = urls.map((url) => url.loc);
      expect(locs).toEqual(expect.arrayContaining([`${baseUrl}/`, `${baseUrl}/albums`, `${baseUrl}/tags`]));
      expect(locs).toContain(`${baseUrl}/albums/${world.publicAlbum.slug}`);
      expect(locs).toContain(`${baseUrl}/tags/${encodeURIComponent(world.photos.public.tag.toLowerCase())}`);
      const photo = urls.find((url) => url.loc === `${baseUrl}/p/${world.photos.public.id}`);
      expect(photo, "the public photo's entry").toBeDefined();
      expect(Number.isNaN(Date.parse(photo!.lastmod!))).toBe(false);
      const image = photo!["image:image"]![0]["image:loc"];
      expect(image).toMatch(new RegExp(`^${baseUrl}/media/[\\w-]{16}/`));
      const served = await world.visitor.request(image.slice(baseUrl.length));
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe("image/jpeg");
      for (const url of urls) for (const each of url["image:image"] ?? []) expect(each["image:loc"]).not.toMatch(/original/);
    });
  }

  it("a small site is one urlset: /sitemaps/1.xml is the same, past it 404, and a malformed part 422", async () => {
    const whole = await (await world.visitor.request("/sitemap.xml")).text();
    const first = await world.visitor.request("/sitemaps/1.xml");
    expect(first.status).toBe(200);
    expect(await first.text()).toBe(whole);
    expect((await world.visitor.request("/sitemaps/2.xml")).status).toBe(404);
    for (const bad of ["/sitemaps/0.xml", "/sitemaps/x.xml", "/sitemaps/1.txt", "/sitemaps/-1.xml"]) {
      expect((await world.visitor.request(bad)).status, bad).toBe(422);
    }
  });

  it("names URLs from NEXTAUTH_URL whatever the Host header says, and answers 304 to its ETag", async () => {
    const response = await world.visitor.request("/sitemap.xml", { headers: { Host: "evil.example", "X-Forwarded-Host": "evil.example" } });
    const xml = await response.text();
    expect(xml).not.toContain("evil.example");
    expect(xml).toContain(`${baseUrl}/p/${world.photos.public.id}`);
    const again = await world.visitor.request("/sitemap.xml", { headers: { "If-None-Match": response.headers.get("etag")! } });
    expect(again.status).toBe(304);
  });
});

describe("robots.txt", () => {
  it("allows the public site, keeps crawlers out of the admin, the API, share links and sign-in, and names the sitemap", async () => {
    const response = await fetch(new URL("/robots.txt", baseUrl), { headers: { Host: "evil.example" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    const lines = (await response.text()).split("\n").map((line) => line.trim());
    expect(lines).toEqual(expect.arrayContaining(["User-agent: *", "Allow: /", "Disallow: /admin", "Disallow: /api", "Disallow: /s/", "Disallow: /signin", `Sitemap: ${baseUrl}/sitemap.xml`]));
    expect(lines.join("\n")).not.toContain("evil.example");
  });
});

describe(`the sitemap split into parts (service, fresh ${databaseKind} database)`, () => {
  let db: Kysely<Database>;
  let remove: () => Promise<void>;
  let library: PhotoLibrary;
  let service: typeof SitemapService;
  const site = "https://photos.example.test";

  beforeAll(async () => {
    // The service names URLs from the environment, as the server does.
    process.env.NEXTAUTH_URL = site;
    process.env.NEXTAUTH_SECRET ??= "sitemap-test-secret-0123456789abcdef0123";
    service = await import("@/src/sitemap/sitemap.service");
    ({ db, remove } = await openFreshDatabase(databaseKind));
    library = await seedPhotoLibrary(db, "sitemap", 40);
    const now = new Date().toISOString();
    await db
      .insertInto("albums")
      .values([
        { id: "sitemap-album-public", owner_id: library.editor.id, slug: "open-album", title: "Open", visibility: "public", parent_id: null, cover_photo_id: library.photos[0].id, created_at: now, updated_at: now },
        { id: "sitemap-album-private", owner_id: library.editor.id, slug: "secret-album", title: "Secret", visibility: "private", parent_id: null, cover_photo_id: null, created_at: now, updated_at: now },
      ])
      .execute();
    await db.insertInto("album_photos").values({ album_id: "sitemap-album-public", photo_id: library.photos[0].id, order_key: "a0", photo_sort_at: library.photos[0].sortAt, photo_created_at: library.photos[0].sortAt, added_at: now }).execute();
    const hidden = library.photos.find((photo) => photo.visibility === "private")!;
    await db.insertInto("tags").values([{ id: "tag-open", name: "Open", key: "open", created_at: now }, { id: "tag-hidden", name: "Hidden", key: "hidden", created_at: now }]).execute();
    await db.insertInto("photo_tags").values([{ photo_id: library.photos[0].id, tag_id: "tag-open", sort_at: library.photos[0].sortAt }, { photo_id: hidden.id, tag_id: "tag-hidden", sort_at: hidden.sortAt }]).execute();
  });
  afterAll(() => remove());

  function expectedLocs(): string[] {
    const listed = inGalleryOrder(library.photos).filter((photo) => photo.visibility === "public" && photo.status === "ready");
    expect(listed.length).toBeGreaterThan(8);
    return [`${site}/`, `${site}/albums`, `${site}/tags`, `${site}/albums/open-album`, `${site}/tags/open`, ...listed.map((photo) => `${site}/p/${photo.id}`)];
  }

  for (const limit of [4, 5, 7]) {
    it(`with a limit of ${limit}: /sitemap.xml is an index of parts, each valid and within the limit, together every public URL once, in order`, async () => {
      const index = await service.buildSitemap(db, { limit });
      await expectValidSitemap(index, "index");
      const parts = (parser.parse(index) as { sitemapindex: { sitemap: Array<{ loc: string }> } }).sitemapindex.sitemap.map((entry) => entry.loc);
      const expected = expectedLocs();
      expect(parts).toEqual(Array.from({ length: Math.ceil(expected.length / limit) }, (_, number) => `${site}/sitemaps/${number + 1}.xml`));
      const seen: string[] = [];
      for (let number = 1; number <= parts.length; number += 1) {
        const xml = await service.buildSitemapPart(db, number, { limit });
        await expectValidSitemap(xml, "urlset");
        const urls = urlsOf(xml);
        expect(urls.length).toBeGreaterThan(0);
        expect(urls.length).toBeLessThanOrEqual(limit);
        seen.push(...urls.map((url) => url.loc));
        for (const url of urls.filter((each) => each.loc.includes("/p/"))) expect(url["image:image"]![0]["image:loc"]).toMatch(new RegExp(`^${site}/media/[\\w-]{16}/variants/.*jpeg-1280\\.jpg$`));
      }
      expect(seen).toEqual(expected);
      await expect(service.buildSitemapPart(db, parts.length + 1, { limit })).rejects.toSatisfy((error) => error instanceof AppError && error.code === "NOT_FOUND");
    });
  }

  it("the public album's entry carries its public cover; with a limit above the total it is one urlset", async () => {
    const xml = await service.buildSitemap(db, { limit: 1000 });
    await expectValidSitemap(xml, "urlset");
    const urls = urlsOf(xml);
    expect(urls.map((url) => url.loc)).toEqual(expectedLocs());
    const album = urls.find((url) => url.loc === `${site}/albums/open-album`)!;
    expect(album["image:image"]![0]["image:loc"]).toContain(`/variants/${library.photos[0].id}/jpeg-1280.jpg`);
    expect(xml).not.toContain("secret-album");
    expect(xml).not.toContain("/tags/hidden");
  });
});
