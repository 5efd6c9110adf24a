// Live Photos over HTTP (issue 30): an iPhone's still and its MOV with the same content identifier
// become one photo, in either order, in one request or two, by multipart or tus (the import command's
// path); the MOV is its motion clip, and a copy of it without sound or metadata plays for whoever may
// see the photo, from /media and share links, with Range. The pair is made here (tests/helpers/live-photos.ts).
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, inject, it } from "vitest";
import { LIVE_MOV_LOCATION, makeLiveMov, makeLiveStill } from "./helpers/live-photos";
import { listStoredKeys, uploadFiles, type UploadedPhoto, waitForProcessing } from "./helpers/photos";
import { enterShareLink } from "./helpers/share-entry";
import { openTestDatabase } from "./helpers/test-database";
import { signedInAs, TestClient } from "./helpers/test-client";
import { createUploadPath, patchUpload } from "./helpers/tus";

const run = promisify(execFile);
const db = openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
afterAll(() => db.destroy());

interface LiveDetail {
  id: string;
  status: string;
  motionUrl: string | null;
  motionClipUrl: string | null;
  video: unknown;
}

async function upload(client: TestClient, files: Array<{ bytes: Uint8Array<ArrayBuffer>; name: string }>): Promise<Array<UploadedPhoto & { isDuplicate: boolean }>> {
  const response = await uploadFiles(client, files);
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { photos: Array<UploadedPhoto & { isDuplicate: boolean }> }).photos;
}

async function uploadByTus(client: TestClient, bytes: Uint8Array<ArrayBuffer>, name: string): Promise<UploadedPhoto> {
  const finished = await patchUpload(client, await createUploadPath(client, bytes.length, name), 0, bytes);
  expect(finished.status, await finished.clone().text()).toBe(200);
  return ((await finished.json()) as { photo: UploadedPhoto }).photo;
}

async function detailOf(client: TestClient, id: string): Promise<LiveDetail> {
  const response = await client.request(`/api/photos/${id}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { photo: LiveDetail }).photo;
}

/** Waits for the clip's playable copy, or for its job to end without one; answers the photo and the job's outcome. */
async function waitForMotionJob(client: TestClient, id: string): Promise<{ photo: LiveDetail; job: { status: string; error: string | null } }> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const job = await db.selectFrom("jobs").select(["status", "last_error"]).where("photo_id", "=", id).where("kind", "=", "photo.motion").executeTakeFirst();
    if (job && (job.status === "done" || job.status === "failed")) return { photo: await detailOf(client, id), job: { status: job.status, error: job.last_error } };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`The motion clip of ${id} was not made within 60 s`);
}

async function ownPhotoIds(client: TestClient): Promise<string[]> {
  const response = await client.request("/api/photos?owner=me");
  expect(response.status).toBe(200);
  return ((await response.json()) as { photos: Array<{ id: string }> }).photos.map((photo) => photo.id);
}

/** What ffprobe says of bytes served: every tag of the file and its streams, and the streams' kinds. */
async function probeServed(bytes: ArrayBuffer): Promise<{ tags: Record<string, string>; streams: string[] }> {
  const file = path.join(tmpdir(), `cs-live-served-${process.pid}-${Date.now()}.mp4`);
  await writeFile(file, new Uint8Array(bytes));
  const { stdout } = await run("ffprobe", ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", file]);
  const parsed = JSON.parse(stdout) as { format: { tags?: Record<string, string> }; streams: Array<{ codec_type: string; tags?: Record<string, string> }> };
  const tags = Object.assign({}, parsed.format.tags, ...parsed.streams.map((stream) => stream.tags ?? {})) as Record<string, string>;
  return { tags, streams: parsed.streams.map((stream) => stream.codec_type) };
}

describe("a Live Photo's still and MOV become one photo", () => {
  it("still first, MOV by tus: one item whose clip plays with Range, without sound or place, for whoever may see it; a second MOV is not kept", async () => {
    const { client: owner } = await signedInAs("editor");
    const id = "5B1D3A2E-1C4F-4D8E-9A6B-0F1E2D3C4B5A";
    const [still] = await upload(owner, [{ bytes: await makeLiveStill(id), name: "IMG_0001.JPG" }]);
    const mov = await uploadByTus(owner, await makeLiveMov(id), "IMG_0001.MOV");
    expect(mov.id).toBe(still.id);
    // Another MOV with the identifier (another take, or the same sent again): the first won.
    const [second] = await upload(owner, [{ bytes: await makeLiveMov(id, { take: 2 }), name: "IMG_0001 (1).MOV" }]);
    expect([second.id, second.isDuplicate]).toEqual([still.id, true]);
    expect(await ownPhotoIds(owner)).toEqual([still.id]);

    const { photo, job } = await waitForMotionJob(owner, still.id);
    expect(job.status).toBe("done");
    expect([photo.status, photo.video, photo.motionClipUrl]).toEqual(["ready", null, `/api/photos/${still.id}/motion`]);
    const url = photo.motionUrl as string;
    expect(url).toMatch(/^\/media\/.+\/motion-[0-9a-f]+\.mp4$/);
    const whole = await owner.request(url);
    expect([whole.status, whole.headers.get("content-type"), whole.headers.get("accept-ranges")]).toEqual([200, "video/mp4", "bytes"]);
    const bytes = await whole.arrayBuffer();
    const served = await probeServed(bytes);
    expect(served.streams).toEqual(["video"]);
    for (const tag of Object.keys(served.tags)) expect(tag).not.toMatch(/location|content\.identifier|make|model|com\.apple/i);
    expect(Buffer.from(bytes).toString("latin1")).not.toContain(LIVE_MOV_LOCATION.iso6709.slice(0, 8));
    const ranged = await owner.request(url, { headers: { Range: "bytes=10-19" } });
    expect([ranged.status, ranged.headers.get("content-range")]).toEqual([206, `bytes 10-19/${bytes.byteLength}`]);
    // The MOV as the phone wrote it stays the owner's download, place and all.
    const original = Buffer.from(await (await owner.request(`/api/photos/${still.id}/motion`)).arrayBuffer());
    expect(original.toString("latin1")).toContain(LIVE_MOV_LOCATION.iso6709);

    // Private: nobody else gets the clip. Through a share link the visitor does, under the link's grant.
    const { client: stranger } = await signedInAs("viewer");
    expect((await stranger.request(url)).status).toBe(404);
    expect((await new TestClient().request(url)).status).toBe(404);
    const created = await owner.request("/api/shares", { body: { json: { photoIds: [still.id] } } });
    expect(created.status, await created.clone().text()).toBe(201);
    const key = ((await created.json()) as { share: { url: string } }).share.url.split("/s/")[1];
    const storageKey = url.split("/").slice(3).join("/");
    expect((await new TestClient().request(`/s/${key}/media/${storageKey}`)).status).not.toBe(206);
    const visitor = new TestClient();
    expect((await enterShareLink(visitor, key)).status).toBe(303);
    const shared = await visitor.request(`/s/${key}/media/${storageKey}`, { headers: { Range: "bytes=0-9" } });
    expect([shared.status, shared.headers.get("content-type")]).toEqual([206, "video/mp4"]);
  });

  it("MOVs first: videos until their still arrives, then taken over, the first stored as its clip, their files gone; another user's MOV never pairs", async () => {
    const { client: owner } = await signedInAs("editor");
    const { client: other } = await signedInAs("editor");
    const id = "0C7E8F9A-2B3C-4D5E-8F70-1A2B3C4D5E6F";
    const [othersVideo] = await upload(other, [{ bytes: await makeLiveMov(id), name: "IMG_0002.MOV" }]);
    const firstMov = await makeLiveMov(id);
    const [video] = await upload(owner, [{ bytes: firstMov, name: "IMG_0002.MOV" }]);
    expect((await detailOf(owner, video.id)).video).not.toBeNull();
    // A second MOV with the identifier (a re-upload, a re-export) before the still: a video too, for now.
    const [secondVideo] = await upload(owner, [{ bytes: await makeLiveMov(id, { take: 2 }), name: "IMG_0002 (1).MOV" }]);
    expect(secondVideo.id).not.toBe(video.id);

    const [still] = await upload(owner, [{ bytes: await makeLiveStill(id), name: "IMG_0002.JPG" }]);
    expect(still.id).not.toBe(video.id);
    // One item, as in the still first order (where a second MOV is not stored), whatever the order.
    expect(await ownPhotoIds(owner)).toEqual([still.id]);
    for (const gone of [video, secondVideo]) expect((await owner.request(`/api/photos/${gone.id}`)).status).toBe(404);
    // Their originals are gone (their posters' variants go with the rows too, as every removed photo's do).
    const stored = await listStoredKeys(inject("storageConfig"));
    expect(stored.filter((key) => key.startsWith("originals/") && (key.includes(video.id) || key.includes(secondVideo.id)))).toEqual([]);
    // The first MOV, as it came, is its clip now, the only file beside it (its playable copy is the first test's subject).
    expect((await detailOf(owner, still.id)).motionClipUrl).toBe(`/api/photos/${still.id}/motion`);
    expect(Buffer.from(await (await owner.request(`/api/photos/${still.id}/motion`)).arrayBuffer()).equals(Buffer.from(firstMov))).toBe(true);
    expect(stored.filter((key) => key.startsWith("companions/") && key.includes(still.id))).toHaveLength(1);

    // The other user's MOV stays their own video, beside nothing of the owner's.
    const theirs = await detailOf(other, othersVideo.id);
    expect([theirs.video === null, theirs.motionUrl]).toEqual([false, null]);
  });

  it("both in one request, the MOV listed first, its frames undecodable: the still is stored and stays a still, the reason recorded", async () => {
    const { client: owner } = await signedInAs("editor");
    const id = "9F8E7D6C-5B4A-4392-8170-6F5E4D3C2B1A";
    const photos = await upload(owner, [
      { bytes: await makeLiveMov(id, { undecodable: true }), name: "IMG_0003.MOV" },
      { bytes: await makeLiveStill(id), name: "IMG_0003.JPG" },
    ]);
    expect(photos.map((photo) => photo.id)).toEqual([photos[1].id, photos[1].id]);
    expect(await ownPhotoIds(owner)).toEqual([photos[1].id]);
    const { photo, job } = await waitForMotionJob(owner, photos[1].id);
    expect([job.status, job.error]).toEqual(["failed", expect.stringMatching(/^The motion clip cannot be played: /)]);
    expect([photo.motionUrl, photo.status]).toEqual([null, "ready"]);
    expect((await waitForProcessing(owner, photos[1].id)).status).toBe("ready");
  });
});
