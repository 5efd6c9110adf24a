// Videos and Live Photos on share links and in link previews (issue 30): a visitor's answers carry
// the playable copy and the motion clip under the link's own media path, never the owner's /media
// and never a place; the clip ends with the link (removed photo, expired, revoked). A public video's
// page names its playable copy in og:video; a private one, and a share page, never do.
// One clip and one Live Photo pair, made and uploaded once for the whole file (1 s, tiny).
import { execFile } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { makeTestClip, TEST_CLIP_METADATA } from "@/src/video/video-test-clips";
import { LIVE_MOV_LOCATION, makeLiveMov, makeLiveStill } from "./helpers/live-photos";
import { uploadFiles, type UploadedPhoto, waitForProcessing } from "./helpers/photos";
import { enterShareLink } from "./helpers/share-entry";
import { openTestDatabase } from "./helpers/test-database";
import { signedInAs, TestClient } from "./helpers/test-client";

const run = promisify(execFile);
const db = openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
afterAll(() => db.destroy());

interface OwnerDetail {
  id: string;
  status: string;
  visibility: string;
  video: { durationMs: number | null; playableUrl: string | null } | null;
  motionUrl: string | null;
}

interface VisitorPhoto {
  id: string;
  name: string;
  video: { durationMs: number | null; playableUrl: string | null } | null;
  motionUrl: string | null;
}

async function detailOf(client: TestClient, id: string): Promise<OwnerDetail> {
  const response = await client.request(`/api/photos/${id}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { photo: OwnerDetail }).photo;
}

/** Waits until the job that makes the playable copy (a video's, or a Live Photo's clip) has made it. */
async function waitFor(client: TestClient, id: string, made: (photo: OwnerDetail) => boolean): Promise<OwnerDetail> {
  expect((await waitForProcessing(client, id)).status).toBe("ready");
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const photo = await detailOf(client, id);
    if (made(photo)) return photo;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`Photo ${id} had no playable copy after 90 s`);
}

async function upload(client: TestClient, files: Array<{ bytes: Uint8Array<ArrayBuffer>; name: string; type?: string }>): Promise<UploadedPhoto[]> {
  const response = await uploadFiles(client, files);
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { photos: UploadedPhoto[] }).photos;
}

/** Every tag ffprobe finds in the container and its streams. */
async function tagsOf(bytes: ArrayBuffer): Promise<Record<string, string>> {
  const file = path.join(tmpdir(), `cs-share-video-${process.pid}-${Date.now()}.mp4`);
  await writeFile(file, new Uint8Array(bytes));
  try {
    const { stdout } = await run("ffprobe", ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", file]);
    const parsed = JSON.parse(stdout) as { format: { tags?: Record<string, string> }; streams: Array<{ tags?: Record<string, string> }> };
    return Object.assign({}, parsed.format.tags, ...parsed.streams.map((stream) => stream.tags ?? {})) as Record<string, string>;
  } finally {
    await rm(file, { force: true });
  }
}

/** The og:video tags of a page, by property. */
function ogVideoTags(html: string): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const match of html.matchAll(/<meta property="(og:video[^"]*)" content="([^"]*)"/g)) tags[match[1]] = match[2].replaceAll("&amp;", "&");
  return tags;
}

const PLACE = /latitude|longitude|48\.85|2\.294|ISO6709|"location":\{/;

let owner: TestClient;
let video: OwnerDetail;
let live: OwnerDetail;
let albumId: string;
let share: { id: string; key: string };
let visitor: TestClient;

beforeAll(async () => {
  ({ client: owner } = await signedInAs("editor"));
  const clip = new Uint8Array(await readFile(await makeTestClip("h264-mp4")));
  const identifier = "7C2E4B1A-3D5F-4A6B-8C9D-0E1F2A3B4C5D";
  const [videoUpload] = await upload(owner, [{ bytes: clip, name: "walk.mp4", type: "video/mp4" }]);
  const [stillUpload] = await upload(owner, [
    { bytes: await makeLiveStill(identifier), name: "IMG_0042.JPG" },
    { bytes: await makeLiveMov(identifier), name: "IMG_0042.MOV" },
  ]);
  [video, live] = await Promise.all([
    waitFor(owner, videoUpload.id, (photo) => Boolean(photo.video?.playableUrl)),
    waitFor(owner, stillUpload.id, (photo) => Boolean(photo.motionUrl)),
  ]);
  // Shared from an album (private photos, location hidden: the link's default), so a photo can be taken out of the link.
  const album = await owner.request("/api/albums", { body: { json: { title: "Walks", visibility: "private" } } });
  expect(album.status, await album.clone().text()).toBe(201);
  albumId = ((await album.json()) as { album: { id: string } }).album.id;
  const added = await owner.request(`/api/albums/${albumId}/photos`, { body: { json: { photoIds: [video.id, live.id] } } });
  expect(added.status, await added.clone().text()).toBe(200);
  const created = await owner.request("/api/shares", { body: { json: { albumId } } });
  expect(created.status, await created.clone().text()).toBe(201);
  const body = (await created.json()) as { share: { id: string; url: string } };
  share = { id: body.share.id, key: body.share.url.split("/s/")[1] };
  visitor = new TestClient();
  expect((await enterShareLink(visitor, share.key)).status).toBe(303);
}, 180_000);

describe("a share link's visitor", () => {
  it("gets the video's playable copy and the Live Photo's clip under the link's path, plays both with Range, and never a place", async () => {
    const listed = await visitor.request(`/s/${share.key}/api/photos`);
    expect(listed.status).toBe(200);
    const text = await listed.text();
    expect(text).not.toMatch(PLACE);
    // Never the owner's own /media URLs: only the link's, which its grant opens.
    expect(text).not.toMatch(/"\/media\//);
    const photos = (JSON.parse(text) as { photos: VisitorPhoto[] }).photos;
    const sharedVideo = photos.find((photo) => photo.id === video.id)!;
    const sharedLive = photos.find((photo) => photo.id === live.id)!;
    const mediaPath = `/s/${share.key}/media/`;
    expect(sharedVideo.video?.playableUrl).toBe(mediaPath + (video.video?.playableUrl as string).split("/").slice(3).join("/"));
    expect(sharedVideo.video?.durationMs).toBe(video.video?.durationMs);
    expect([sharedVideo.motionUrl, sharedLive.video]).toEqual([null, null]);
    expect(sharedLive.motionUrl).toBe(mediaPath + (live.motionUrl as string).split("/").slice(3).join("/"));
    expect(sharedVideo.name).toMatch(/^Photo 1/);

    for (const url of [sharedVideo.video!.playableUrl!, sharedLive.motionUrl!]) {
      const whole = await visitor.request(url);
      expect([whole.status, whole.headers.get("content-type"), whole.headers.get("cache-control")], url).toEqual([200, "video/mp4", "private, no-store"]);
      const bytes = await whole.arrayBuffer();
      for (const tag of Object.keys(await tagsOf(bytes))) expect(tag).not.toMatch(/location|make|model|com\.apple/i);
      const latin1 = Buffer.from(bytes).toString("latin1");
      expect(latin1).not.toContain(TEST_CLIP_METADATA["h264-mp4"].location.slice(0, 8));
      expect(latin1).not.toContain(LIVE_MOV_LOCATION.iso6709.slice(0, 8));
      const middle = Math.floor(bytes.byteLength / 2);
      const ranged = await visitor.request(url, { headers: { Range: `bytes=${middle}-${middle + 99}` } });
      expect([ranged.status, ranged.headers.get("content-range")]).toEqual([206, `bytes ${middle}-${middle + 99}/${bytes.byteLength}`]);
      // Without the link's grant, nothing.
      expect((await new TestClient().request(url)).status).toBe(401);
    }

    // The detail answer and the photo page carry the same, and no place; the page never offers og:video.
    const detail = await (await visitor.request(`/s/${share.key}/api/photos/${video.id}`)).text();
    expect(detail).toContain(sharedVideo.video!.playableUrl!);
    expect(detail).not.toMatch(PLACE);
    const page = await visitor.request(`/s/${share.key}/p/${video.id}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(sharedVideo.video!.playableUrl!);
    expect(html).not.toMatch(/48\.85|2\.294|ISO6709/);
    expect(ogVideoTags(html)).toEqual({});
  });

  it("loses the clip when the photo leaves the link, when the link expires and when it is revoked", async () => {
    const photos = ((await (await visitor.request(`/s/${share.key}/api/photos`)).json()) as { photos: VisitorPhoto[] }).photos;
    const videoUrl = photos.find((photo) => photo.id === video.id)!.video!.playableUrl!;
    const motionUrl = photos.find((photo) => photo.id === live.id)!.motionUrl!;
    const statusOf = async (url: string) => (await visitor.request(url, { headers: { Range: "bytes=0-9" } })).status;

    // Out of the album, and the link takes the album's photos again: the video is no longer the link's.
    expect((await owner.request(`/api/albums/${albumId}/photos`, { method: "DELETE", body: { json: { photoIds: [video.id] } } })).status).toBe(200);
    expect((await owner.request(`/api/shares/${share.id}`, { method: "PATCH", body: { json: { refreshFromAlbum: true } } })).status).toBe(200);
    expect([await statusOf(videoUrl), await statusOf(motionUrl)]).toEqual([404, 206]);

    const future = (await db.selectFrom("shares").select("expires_at").where("id", "=", share.id).executeTakeFirstOrThrow()).expires_at;
    await db.updateTable("shares").set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where("id", "=", share.id).execute();
    expect(await statusOf(motionUrl)).toBe(401);
    await db.updateTable("shares").set({ expires_at: future }).where("id", "=", share.id).execute();
    expect(await statusOf(motionUrl)).toBe(206);

    expect((await owner.request(`/api/shares/${share.id}`, { method: "PATCH", body: { json: { revoked: true } } })).status).toBe(200);
    expect(await statusOf(motionUrl)).toBe(401);
  });
});

describe("og:video", () => {
  it("a public video's page names its playable copy, which anyone fetches without a cookie; private again, it names none", async () => {
    const anonymous = new TestClient();
    expect(ogVideoTags(await (await anonymous.request(`/p/${video.id}`)).text())).toEqual({});
    // Not even for the owner, whose own view of a private video is no link preview.
    expect(ogVideoTags(await (await owner.request(`/p/${video.id}`)).text())).toEqual({});

    const published = await owner.request(`/api/photos/${video.id}`, { method: "PATCH", body: { json: { visibility: "public" } } });
    expect(published.status, await published.clone().text()).toBe(200);
    const { photo } = (await published.json()) as { photo: OwnerDetail };
    const tags = ogVideoTags(await (await anonymous.request(`/p/${video.id}`)).text());
    expect(tags).toEqual({
      "og:video": expect.stringMatching(new RegExp(`^https?://[^/]+${(photo.video?.playableUrl as string).replaceAll("/", "\\/")}$`)),
      "og:video:type": "video/mp4",
      "og:video:width": "320",
      "og:video:height": "240",
    });
    const played = await anonymous.request(new URL(tags["og:video"]).pathname, { headers: { Range: "bytes=0-9" } });
    expect([played.status, played.headers.get("content-type")]).toEqual([206, "video/mp4"]);

    expect((await owner.request(`/api/photos/${video.id}`, { method: "PATCH", body: { json: { visibility: "private" } } })).status).toBe(200);
    expect(ogVideoTags(await (await anonymous.request(`/p/${video.id}`)).text())).toEqual({});
    // A Live Photo's page is a photo's: its clip is no og:video.
    expect((await owner.request(`/api/photos/${live.id}`, { method: "PATCH", body: { json: { visibility: "public" } } })).status).toBe(200);
    expect(ogVideoTags(await (await anonymous.request(`/p/${live.id}`)).text())).toEqual({});
  });
});
