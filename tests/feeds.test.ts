// Feeds (/feed.xml, /feed.json, per public album and per tag): parsed back with a real XML parser and
// checked against JSON Feed 1.1's required fields; titles and captions escaped by the library (a
// hostile title round-trips exactly); stable ids; a public JPEG variant, never the original; only
// public photos for everyone (SECURITY.md 43, both ways: the public photo shows, no secret does);
// autodiscovery links; absolute URLs from NEXTAUTH_URL whatever the Host header says.
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { z } from "zod";
import { uploadCorpusFile, waitForProcessing } from "./helpers/photos";
import { createPrivacyWorld, expectNoSecrets, type PrivacyWorld } from "./helpers/privacy-world";
import { signedInAdmin, TestClient } from "./helpers/test-client";

const baseUrl = inject("baseUrl");

const rssParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (name) => ["item", "enclosure", "media:content", "atom:link"].includes(name),
});

interface RssItem {
  title: string;
  link: string;
  guid: { "#text": string; "@_isPermaLink": string };
  pubDate: string;
  description?: string;
  enclosure?: Array<{ "@_url": string; "@_type": string; "@_length": string }>;
  "media:content"?: Array<{ "@_url": string; "@_type": string; "@_medium": string }>;
}

interface RssDocument {
  rss: {
    "@_version": string;
    channel: { title: string; link: string; description: string; "atom:link"?: Array<{ "@_href": string; "@_rel": string }>; item?: RssItem[] };
  };
}

/** Parses an RSS answer strictly: well-formed XML, RSS 2.0, a channel with its required elements. */
function parseRss(text: string): RssDocument["rss"]["channel"] & { items: RssItem[] } {
  const valid = XMLValidator.validate(text);
  expect(valid, JSON.stringify(valid)).toBe(true);
  const document = rssParser.parse(text) as RssDocument;
  expect(document.rss["@_version"]).toBe("2.0");
  const channel = document.rss.channel;
  expect(channel.title).toBeTruthy();
  expect(channel.link).toMatch(/^https?:\/\//);
  expect(typeof channel.description).toBe("string");
  for (const item of channel.item ?? []) {
    expect(item.title || item.description).toBeTruthy();
    expect(Number.isNaN(Date.parse(item.pubDate))).toBe(false);
  }
  return { ...channel, items: channel.item ?? [] };
}

// JSON Feed 1.1 (https://www.jsonfeed.org/version/1.1/): the top level's version, title and items;
// each item's id and content_html or content_text; attachments' url and mime_type; dates in RFC 3339.
const rfc3339 = z.string().refine((value) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value), "RFC 3339");
const jsonFeedItem = z
  .object({
    id: z.string().min(1),
    url: z.url().optional(),
    title: z.string().optional(),
    content_html: z.string().optional(),
    content_text: z.string().optional(),
    image: z.url().optional(),
    date_published: rfc3339.optional(),
    attachments: z.array(z.object({ url: z.url(), mime_type: z.string().min(1), size_in_bytes: z.number().int().positive().optional(), title: z.string().optional() })).optional(),
  })
  .refine((item) => item.content_html !== undefined || item.content_text !== undefined, "an item needs content_html or content_text");
const jsonFeed = z.object({
  version: z.literal("https://jsonfeed.org/version/1.1"),
  title: z.string().min(1),
  home_page_url: z.url().optional(),
  feed_url: z.url().optional(),
  description: z.string().optional(),
  icon: z.url().optional(),
  favicon: z.url().optional(),
  language: z.string().optional(),
  items: z.array(jsonFeedItem),
});

async function fetchText(client: TestClient, path: string, status = 200, headers: Record<string, string> = {}): Promise<{ text: string; response: Response }> {
  const response = await client.request(path, { headers });
  const text = await response.text();
  expect(response.status, `${path}: ${text.slice(0, 300)}`).toBe(status);
  return { text, response };
}

async function readRss(client: TestClient, path: string) {
  const { text, response } = await fetchText(client, path);
  expect(response.headers.get("content-type")).toMatch(/^application\/rss\+xml/);
  return { text, feed: parseRss(text), response };
}

async function readJsonFeed(client: TestClient, path: string) {
  const { text, response } = await fetchText(client, path);
  expect(response.headers.get("content-type")).toMatch(/^application\/feed\+json/);
  return { text, feed: jsonFeed.parse(JSON.parse(text)), response };
}

let world: PrivacyWorld;
let publicFeedPaths: string[];

beforeAll(async () => {
  world = await createPrivacyWorld("feeds");
  publicFeedPaths = [
    "/feed.xml",
    "/feed.json",
    `/albums/${world.publicAlbum.slug}/feed.xml`,
    `/albums/${world.publicAlbum.slug}/feed.json`,
    `/tags/${encodeURIComponent(world.photos.public.tag.toLowerCase())}/feed.xml`,
    `/tags/${encodeURIComponent(world.photos.public.tag.toLowerCase())}/feed.json`,
  ];
}, 240_000);

describe("feeds and the privacy world (SECURITY.md 43)", () => {
  for (const who of ["visitor", "member", "owner"] as const) {
    it(`${who}: every public feed carries the public photo and no secret of a visitor's (feeds are public-only for everyone)`, async () => {
      const client = world[who];
      const secrets = world.secretsHiddenFrom("visitor");
      for (const path of publicFeedPaths) {
        const { text } = await fetchText(client, path);
        expectNoSecrets(text, secrets, `${who} ${path}`);
        // The positive control: the public photo is there, by id and by word.
        expect(text, path).toContain(`${baseUrl}/p/${world.photos.public.id}`);
        expect(text, path).toContain(world.photos.public.word);
      }
    });
  }

  it("the private album's feed, and the feeds of tags only hidden photos carry, are 404 for everyone", async () => {
    for (const client of [world.visitor, world.member, world.owner]) {
      for (const format of ["xml", "json"]) {
        await fetchText(client, `/albums/${world.privateAlbum.slug}/feed.${format}`, 404);
        for (const visibility of ["unlisted", "members", "private"] as const) {
          await fetchText(client, `/tags/${encodeURIComponent(world.photos[visibility].tag.toLowerCase())}/feed.${format}`, 404);
        }
        await fetchText(client, `/albums/no-such-album-${Date.now()}/feed.${format}`, 404);
        await fetchText(client, `/tags/no-such-tag-${Date.now()}/feed.${format}`, 404);
      }
    }
  });

  it("the album feed lists only the album's public photo, though the album holds all four", async () => {
    const { feed } = await readJsonFeed(world.visitor, `/albums/${world.publicAlbum.slug}/feed.json`);
    expect(feed.items.map((item) => item.id)).toEqual([`${baseUrl}/p/${world.photos.public.id}`]);
    const { feed: rss } = await readRss(world.visitor, `/albums/${world.publicAlbum.slug}/feed.xml`);
    expect(rss.items.map((item) => item.guid["#text"])).toEqual([`${baseUrl}/p/${world.photos.public.id}`]);
  });

  it("a renamed public album's old slug redirects to its feed; HEAD answers like GET without a body", async () => {
    const created = await world.owner.request("/api/albums", { body: { json: { title: `Feed rename ${Date.now()}`, visibility: "public" } } });
    const { album } = (await created.json()) as { album: { id: string; slug: string } };
    expect((await world.owner.request(`/api/albums/${album.id}/photos`, { body: { json: { photoIds: [world.photos.public.id, world.photos.private.id] } } })).status).toBe(200);
    const renamed = `${album.slug}-renamed`;
    const patched = await world.owner.request(`/api/albums/${album.id}`, { method: "PATCH", body: { json: { slug: renamed } } });
    expect(patched.status, await patched.text()).toBe(200);
    for (const format of ["xml", "json"]) {
      const moved = await world.visitor.request(`/albums/${album.slug}/feed.${format}`);
      expect(moved.status).toBe(308);
      expect(moved.headers.get("location")).toBe(`/albums/${renamed}/feed.${format}`);
      const { text } = await fetchText(world.visitor, `/albums/${renamed}/feed.${format}`);
      expect(text).toContain(world.photos.public.id);
      expectNoSecrets(text, world.secretsHiddenFrom("visitor"), `the renamed album's ${format} feed`);
    }
    const head = await world.visitor.request("/feed.xml", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toMatch(/^application\/rss\+xml/);
    expect(await head.text()).toBe("");
  });

  it("a tag's other spelling redirects to its own feed", async () => {
    const response = await world.visitor.request(`/tags/${encodeURIComponent(world.photos.public.tag.toUpperCase())}/feed.xml`);
    expect(response.status).toBe(308);
    expect(response.headers.get("location")).toBe(`/tags/${encodeURIComponent(world.photos.public.tag.toLowerCase())}/feed.xml`);
  });
});

describe("feed items", () => {
  const hostileTitle = `Fish & <chips> ]]> "quoted" ]]><script>alert(1)</script>\r\nline two 📷 é`;
  const hostileCaption = `<img src=x onerror=alert(1)> & ]]> caption 🌊`;
  // The API already strips control characters (CR and LF too) from titles: what is stored and published.
  const storedTitle = hostileTitle.replace(/[\r\n]/g, "");
  let hostileId: string;

  beforeAll(async () => {
    const uploaded = await uploadCorpusFile(world.owner, "exif-samples/jpg/Canon_40D.jpg");
    expect((await waitForProcessing(world.owner, uploaded.id)).status).toBe("ready");
    hostileId = uploaded.id;
    const response = await world.owner.request(`/api/photos/${hostileId}`, {
      method: "PATCH",
      body: { json: { title: hostileTitle, caption: hostileCaption, visibility: "public" } },
    });
    expect(response.status, await response.text()).toBe(200);
  }, 120_000);

  it("RSS: a hostile title and caption round-trip through the parser exactly (escaped by the library)", async () => {
    const { feed, text } = await readRss(world.visitor, "/feed.xml");
    const item = feed.items.find((each) => each.guid["#text"] === `${baseUrl}/p/${hostileId}`);
    expect(item, "the hostile photo's item").toBeDefined();
    expect(item!.title).toBe(storedTitle);
    expect(item!.link).toBe(`${baseUrl}/p/${hostileId}`);
    expect(item!.guid["@_isPermaLink"]).toBe("true");
    // The description is HTML to a reader: the caption is in it as text, its markup escaped.
    expect(item!.description).toBe(hostileCaption.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"));
    // No live markup anywhere in the document: every "<script" is inside a CDATA section.
    expect(text.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, "")).not.toMatch(/<script|<img/);
  });

  it("JSON Feed: the same title and caption as plain strings, content as text (never HTML)", async () => {
    const { feed } = await readJsonFeed(world.visitor, "/feed.json");
    const item = feed.items.find((each) => each.id === `${baseUrl}/p/${hostileId}`);
    expect(item).toBeDefined();
    expect(item!.title).toBe(storedTitle);
    expect(item!.content_text).toBe(hostileCaption);
    expect(item!.content_html).toBeUndefined();
    expect(item!.url).toBe(`${baseUrl}/p/${hostileId}`);
  });

  it("each item carries a public JPEG variant about 1280 wide with its type and length, never the original, and it is served", async () => {
    const { feed } = await readRss(world.visitor, "/feed.xml");
    const { feed: json } = await readJsonFeed(world.visitor, "/feed.json");
    const item = feed.items.find((each) => each.guid["#text"] === `${baseUrl}/p/${world.photos.public.id}`)!;
    const enclosure = item.enclosure![0];
    expect(enclosure["@_type"]).toBe("image/jpeg");
    expect(enclosure["@_url"]).toMatch(new RegExp(`^${baseUrl}/media/[\\w-]{16}/`));
    expect(enclosure["@_url"]).not.toMatch(/original/);
    expect(item["media:content"]![0]["@_url"]).toBe(enclosure["@_url"]);
    expect(item["media:content"]![0]["@_medium"]).toBe("image");
    const jsonItem = json.items.find((each) => each.id === `${baseUrl}/p/${world.photos.public.id}`)!;
    expect(jsonItem.image).toBe(enclosure["@_url"]);
    expect(jsonItem.attachments![0]).toMatchObject({ url: enclosure["@_url"], mime_type: "image/jpeg", size_in_bytes: Number(enclosure["@_length"]) });
    for (const each of [...feed.items.flatMap((entry) => entry.enclosure ?? []).map((entry) => entry["@_url"]), ...json.items.map((entry) => entry.image ?? "")]) {
      expect(each).not.toMatch(/\/api\/photos\/.*\/original|\/originals\//);
    }
    const image = await world.visitor.request(enclosure["@_url"].slice(baseUrl.length));
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/jpeg");
    const bytes = new Uint8Array(await image.arrayBuffer());
    expect(bytes.length).toBe(Number(enclosure["@_length"]));
    const { width } = await import("sharp").then(({ default: sharp }) => sharp(bytes).metadata());
    expect(width).toBeGreaterThan(320);
    expect(width).toBeLessThanOrEqual(2048);
  });

  it("ids are stable: two fetches give the same ids and the same bytes, and the ETag answers 304", async () => {
    for (const path of ["/feed.xml", "/feed.json"]) {
      const first = await fetchText(world.visitor, path);
      const second = await fetchText(new TestClient(), path);
      expect(second.text).toBe(first.text);
      const etag = first.response.headers.get("etag");
      expect(etag).toMatch(/^"[\w-]+"$/);
      expect(first.response.headers.get("cache-control")).toBe("public, max-age=300");
      const again = await world.visitor.request(path, { headers: { "If-None-Match": etag! } });
      expect(again.status).toBe(304);
    }
  });

  it("absolute URLs come from NEXTAUTH_URL, never from the Host or X-Forwarded-Host header", async () => {
    for (const path of ["/feed.xml", "/feed.json"]) {
      const { text } = await fetchText(world.visitor, path, 200, { Host: "evil.example", "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https" });
      expect(text).not.toContain("evil.example");
      expect(text).toContain(`${baseUrl}/p/${world.photos.public.id}`);
    }
  });

  it("a photo that stops being public leaves every feed at once", async () => {
    const before = await fetchText(world.visitor, "/feed.json");
    expect(before.text).toContain(hostileId);
    const response = await world.owner.request(`/api/photos/${hostileId}`, { method: "PATCH", body: { json: { visibility: "private" } } });
    expect(response.status).toBe(200);
    for (const path of ["/feed.xml", "/feed.json"]) {
      const { text } = await fetchText(world.visitor, path);
      expect(text).not.toContain(hostileId);
      expect(text).toContain(world.photos.public.id);
    }
  });
});

describe("an album's and the site's own words (SECURITY.md 65)", () => {
  const hostile = `<script>alert(65)</script> Fish & chips ]]> twice ]]>\r\nline two`;
  const asText = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const admin = () => signedInAdmin();

  it("go into the RSS channel's description as text (escaped for an HTML reader) and JSON Feed's as plain text", async () => {
    const client = await admin();
    const before = (await (await client.request("/api/admin/settings")).json()) as { siteDescription: string };
    const albumResponse = await world.owner.request("/api/albums", { body: { json: { title: `Feed words ${Date.now()}`, description: hostile, visibility: "public" } } });
    expect(albumResponse.status, await albumResponse.clone().text()).toBe(201);
    const { album } = (await albumResponse.json()) as { album: { id: string; slug: string; description: string } };
    expect((await world.owner.request(`/api/albums/${album.id}/photos`, { body: { json: { photoIds: [world.photos.public.id] } } })).status).toBe(200);
    const settings = await client.request("/api/admin/settings", { method: "PATCH", body: { json: { siteDescription: hostile.replace(/\r\n/g, " ") } } });
    expect(settings.status, await settings.clone().text()).toBe(200);
    try {
      for (const [path, words] of [
        [`/albums/${album.slug}/feed.xml`, album.description],
        ["/feed.xml", hostile.replace(/\r\n/g, " ")],
      ]) {
        const { feed, text } = await readRss(world.visitor, path);
        // Parsed back, the description is the words with their markup escaped: an HTML reader shows them as written.
        expect(feed.description.replace(/\s+/g, " "), path).toBe(asText(words).replace(/\s+/g, " "));
        expect(text.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, ""), path).not.toMatch(/<script/);
        const { feed: json } = await readJsonFeed(world.visitor, path.replace(/\.xml$/, ".json"));
        expect(json.description, path).toBe(words.replace(/[\r\n]+/g, " "));
      }
      // The album page's Open Graph description carries the same words, escaped for an HTML attribute.
      const { text: page } = await fetchText(world.visitor, `/albums/${album.slug}`);
      expect(page).not.toContain("<script>alert(65)");
      expect(page).toMatch(/<meta property="og:description" content="&lt;script&gt;alert\(65\)&lt;\/script&gt; Fish &amp; chips/);
    } finally {
      await client.request("/api/admin/settings", { method: "PATCH", body: { json: { siteDescription: before.siteDescription } } });
    }
  });
});

describe("a public album with no public photo yet", () => {
  it("has feeds all the same: RSS without items, JSON Feed with its required, empty, items", async () => {
    const created = await world.owner.request("/api/albums", { body: { json: { title: `Empty feed ${Date.now()}`, visibility: "public" } } });
    const { album } = (await created.json()) as { album: { slug: string } };
    expect((await readRss(world.visitor, `/albums/${album.slug}/feed.xml`)).feed.items).toEqual([]);
    expect((await readJsonFeed(world.visitor, `/albums/${album.slug}/feed.json`)).feed.items).toEqual([]);
  });
});

describe("autodiscovery links", () => {
  function alternates(html: string): Array<{ type: string; href: string }> {
    return [...html.matchAll(/<link[^>]*rel="alternate"[^>]*>/g)].map((match) => ({
      type: /type="([^"]+)"/.exec(match[0])?.[1] ?? "",
      href: (/href="([^"]+)"/.exec(match[0])?.[1] ?? "").replace(/&amp;/g, "&"),
    }));
  }

  it("/, a public album and a tag page name their RSS and JSON feeds by absolute URL", async () => {
    const tagPath = `/tags/${encodeURIComponent(world.photos.public.tag.toLowerCase())}`;
    for (const page of ["/", `/albums/${world.publicAlbum.slug}`, tagPath]) {
      const { text } = await fetchText(world.visitor, page);
      const links = alternates(text);
      const feedBase = page === "/" ? "" : page;
      expect(links, page).toContainEqual({ type: "application/rss+xml", href: `${baseUrl}${feedBase}/feed.xml` });
      expect(links, page).toContainEqual({ type: "application/feed+json", href: `${baseUrl}${feedBase}/feed.json` });
      for (const link of links.filter((each) => each.type.includes("rss") || each.type.includes("feed+json"))) {
        const feed = await world.visitor.request(link.href.slice(baseUrl.length));
        expect(feed.status, link.href).toBe(200);
      }
    }
  });

  it("the private album's page (for its owner) names no feed", async () => {
    const { text } = await fetchText(world.owner, `/albums/${world.privateAlbum.slug}`);
    expect(alternates(text).filter((link) => link.type === "application/rss+xml" || link.type === "application/feed+json")).toEqual([]);
  });
});
