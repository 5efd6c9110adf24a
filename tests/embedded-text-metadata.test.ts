// The title, caption and keywords a photographer's tool wrote into the file itself (XMP's dc:title,
// dc:description, dc:subject, lr:hierarchicalSubject; IPTC-IIM's Object Name, Caption-Abstract,
// Keywords) become the photo's title, caption and tags when it is processed, whether it came through
// the upload page's API or `contact-sheet import` (tests/cli-import.test.ts: a sidecar beside the
// file wins, a second import overwrites nothing). They are defaults: what the owner edits on the site
// outlives processing again. The JPEGs are written here (tests/helpers/embedded-metadata-jpeg.ts), the
// WebP and AVIF by sharp (src/images/embedded-notes-reader.test.ts has the hostile XMP cases).
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { jpegWithEmbeddedText, xmpPacket } from "./helpers/embedded-metadata-jpeg";
import { uploadFiles, waitForProcessing } from "./helpers/photos";
import { signedInAs, type TestClient } from "./helpers/test-client";
import { withServerDatabase } from "./helpers/server-database";

let owner: TestClient;
/** Keeps each file's pixels apart, so no two files of a run are one photo. */
let seed = Date.now() % 1000;


async function uploaded(bytes: Uint8Array<ArrayBuffer>, name: string): Promise<string> {
  const response = await uploadFiles(owner, [{ bytes, name }]);
  expect(response.status, await response.clone().text()).toBe(201);
  const [{ id }] = ((await response.json()) as { photos: Array<{ id: string }> }).photos;
  expect((await waitForProcessing(owner, id)).status).toBe("ready");
  return id;
}

async function textOf(id: string): Promise<{ title: string; caption: string; tags: string[] }> {
  const { photo } = (await (await owner.request(`/api/photos/${id}`)).json()) as { photo: { title: string; caption: string } };
  const { tags } = (await (await owner.request(`/api/photos/${id}/tags`)).json()) as { tags: Array<{ name: string }> };
  return { title: photo.title, caption: photo.caption, tags: tags.map((tag) => tag.name).sort() };
}

/** Processing again, as a retry does after a failure (a reprocess queues the same job). */
async function processAgain(id: string): Promise<void> {
  await withServerDatabase((db) => db.updateTable("photos").set({ status: "failed", failure_reason: "A test says so" }).where("id", "=", id).execute());
  const retry = await owner.request(`/api/photos/${id}/retry`, { method: "POST" });
  expect(retry.status, await retry.clone().text()).toBe(202);
  expect((await waitForProcessing(owner, id)).status).toBe("ready");
}

beforeAll(async () => {
  owner = (await signedInAs("editor")).client;
});

describe("a title, caption and keywords written into the file", () => {
  it("become an uploaded photo's title, caption and tags: XMP in UTF-8, Lightroom's hierarchy by its leaf", async () => {
    const bytes = await jpegWithEmbeddedText((seed += 7), {
      xmp: { title: "Café à Kyōto 京都の朝", description: "Rain & tea\nat dawn", keywords: ["Kyoto", "寺"], hierarchicalSubjects: ["Places|Japan|Gion"] },
    });
    const id = await uploaded(bytes, "kyoto.jpg");
    expect(await textOf(id)).toEqual({ title: "Café à Kyōto 京都の朝", caption: "Rain & tea\nat dawn", tags: ["Gion", "Kyoto", "寺"] });
    // Searchable like the owner's own.
    const search = (await (await owner.request(`/api/search?q=${encodeURIComponent("tag:寺")}`)).json()) as { photos: Array<{ id: string }> };
    expect(search.photos.map((photo) => photo.id)).toContain(id);
  });

  it("are read from IPTC-IIM (Object Name, Caption-Abstract, Keywords) when the file has no XMP", async () => {
    const bytes = await jpegWithEmbeddedText((seed += 7), { iptc: { objectName: "Zürich, Œuvre 東京", caption: "Légende", keywords: ["Straße", "東京"] } });
    const id = await uploaded(bytes, "iptc.jpg");
    expect(await textOf(id)).toEqual({ title: "Zürich, Œuvre 東京", caption: "Légende", tags: ["Straße", "東京"] });
  });

  it("are read from a WebP's and an AVIF's XMP too; a WebP whose XMP is built to make the parser crawl is processed with none of it", async () => {
    const image = (format: "webp" | "avif") => sharp({ create: { width: 40, height: 30, channels: 3, background: { r: (seed += 7) % 256, g: 60, b: 200 } } })[format]();
    const crawling = xmpPacket({ title: "Crawl" }).replace("</rdf:Description>", `<dc:subject><rdf:Bag>${"<rdf:li>x".repeat(230_000)}</rdf:Description>`);
    const files = [
      { bytes: new Uint8Array(await image("webp").withXmp(xmpPacket({ title: "Harbour at dusk", keywords: ["Harbour", "Dusk"] })).toBuffer()), name: "harbour.webp" },
      { bytes: new Uint8Array(await image("avif").withXmp(xmpPacket({ description: "From an AVIF", keywords: ["Avif"] })).toBuffer()), name: "avif.avif" },
      { bytes: new Uint8Array(await image("webp").withXmp(crawling).toBuffer()), name: "crawl.webp" },
    ];
    const response = await uploadFiles(owner, files);
    expect(response.status, await response.clone().text()).toBe(201);
    const [webp, avif, hostile] = ((await response.json()) as { photos: Array<{ id: string }> }).photos.map((photo) => photo.id);
    for (const id of [webp, avif, hostile]) expect((await waitForProcessing(owner, id)).status).toBe("ready");
    expect(await textOf(webp)).toEqual({ title: "Harbour at dusk", caption: "", tags: ["Dusk", "Harbour"] });
    expect(await textOf(avif)).toEqual({ title: "", caption: "From an AVIF", tags: ["Avif"] });
    expect(await textOf(hostile)).toEqual({ title: "", caption: "", tags: [] });
  });

  it("give way to the owner's edits: processing again keeps an edited title and never adds back a tag taken off", async () => {
    const bytes = await jpegWithEmbeddedText((seed += 7), { xmp: { title: "From the file", description: "File caption", keywords: ["Keep", "Drop"] } });
    const id = await uploaded(bytes, "edited.jpg");
    const patched = await owner.request(`/api/photos/${id}`, { method: "PATCH", body: { json: { title: "Mine, édité" } } });
    expect(patched.status, await patched.clone().text()).toBe(200);
    const retagged = await owner.request(`/api/photos/${id}/tags`, { method: "PUT", body: { json: { names: ["Keep"] } } });
    expect(retagged.status, await retagged.clone().text()).toBe(200);
    await processAgain(id);
    expect(await textOf(id)).toEqual({ title: "Mine, édité", caption: "File caption", tags: ["Keep"] });
  });
});
