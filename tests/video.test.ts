// Videos through the same upload paths as photos (multipart and tus), probed, given a poster's
// variants and a playable copy by the real worker, and served with Range under the photo rules.
// The clips are made here by the system's ffmpeg (1 s, 320 × 240).
import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createStorage } from "@/src/storage/create-storage";
import { readStoredBytes } from "@/src/storage/read-stored-bytes";
import { makeTestClip, TEST_CLIP_METADATA } from "@/src/video/video-test-clips";
import { enterShareLink } from "./helpers/share-entry";
import { corpusFile, listStoredKeys, type PhotoDetailBody, uploadFiles, type UploadedPhoto, waitForProcessing } from "./helpers/photos";
import { openTestDatabase } from "./helpers/test-database";
import { TEST_SECRET } from "./setup/global-setup";
import { startTestApp, testStorageFromEnvironment } from "./helpers/test-app";
import { signedInAs, TestClient } from "./helpers/test-client";
import { createUploadPath, patchUpload } from "./helpers/tus";

const run = promisify(execFile);
const db = openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
afterAll(() => db.destroy());

interface VideoDetail extends PhotoDetailBody {
  video: { durationMs: number | null; playableUrl: string | null } | null;
  exif: { cameraMake: string | null; cameraModel: string | null };
  location: { latitude: number; longitude: number; altitude: number | null } | null;
}

async function detailOf(client: TestClient, id: string): Promise<VideoDetail> {
  const response = await client.request(`/api/photos/${id}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { photo: VideoDetail }).photo;
}

/** Waits for the poster (ready) and then for the playable copy, which a later job makes. */
async function waitForPlayable(client: TestClient, id: string): Promise<VideoDetail> {
  const ready = (await waitForProcessing(client, id)) as VideoDetail;
  expect([ready.status, ready.failureReason]).toEqual(["ready", null]);
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const photo = await detailOf(client, id);
    if (photo.video?.playableUrl || photo.status === "failed") return photo;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`Video ${id} had no playable copy after 90 s`);
}

async function uploadOne(client: TestClient, bytes: Uint8Array<ArrayBuffer>, name: string, type = "video/mp4"): Promise<UploadedPhoto> {
  const response = await uploadFiles(client, [{ bytes, name, type }]);
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { photos: UploadedPhoto[] }).photos[0];
}

/** What ffprobe says of bytes served: the container's tags and the first video stream. */
async function probeServed(bytes: ArrayBuffer): Promise<{ tags: Record<string, string>; video: { codec_name: string; width: number; height: number } }> {
  const file = path.join(tmpdir(), `cs-served-${process.pid}-${Date.now()}.mp4`);
  await writeFile(file, new Uint8Array(bytes));
  const { stdout } = await run("ffprobe", ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", file]);
  const parsed = JSON.parse(stdout) as { format: { tags?: Record<string, string> }; streams: Array<{ codec_type: string; codec_name: string; width: number; height: number; tags?: Record<string, string> }> };
  const video = parsed.streams.find((stream) => stream.codec_type === "video");
  if (!video) throw new Error("no video stream served");
  const streamTags = Object.assign({}, ...parsed.streams.map((stream) => stream.tags ?? {})) as Record<string, string>;
  return { tags: { ...streamTags, ...parsed.format.tags }, video };
}

let mp4: Uint8Array<ArrayBuffer>;
let mov: Uint8Array<ArrayBuffer>;
let webm: Uint8Array<ArrayBuffer>;
beforeAll(async () => {
  [mp4, mov, webm] = await Promise.all(
    (["h264-mp4", "hevc-hdr-mov", "vp9-webm"] as const).map(async (kind) => new Uint8Array(await readFile(await makeTestClip(kind)))),
  );
});

describe("a video uploaded as a photo would be", () => {
  it("H.264 MP4: probed (length, date, place, camera), a poster's variants, a remuxed playable copy without metadata, served with Range", async () => {
    const { client: owner } = await signedInAs("editor");
    const uploaded = await uploadOne(owner, mp4, "holiday.mp4");
    const photo = await waitForPlayable(owner, uploaded.id);
    const meta = TEST_CLIP_METADATA["h264-mp4"];
    expect(photo).toMatchObject({ status: "ready", width: 320, height: 240, takenAt: meta.takenAt, video: { durationMs: 1000 } });
    expect(photo.exif).toMatchObject({ cameraMake: meta.make, cameraModel: meta.model });
    expect(photo.location).toMatchObject({ latitude: meta.latitude, longitude: meta.longitude });
    expect(photo.thumbhash).toBeTruthy();
    expect(new Set(photo.variants.map((variant) => variant.format))).toEqual(new Set(["jpeg", "webp", "avif"]));
    const poster = await owner.request(photo.variants.find((variant) => variant.format === "jpeg")?.url ?? "");
    expect([poster.status, poster.headers.get("content-type")]).toEqual([200, "image/jpeg"]);

    const url = photo.video?.playableUrl as string;
    const whole = await owner.request(url);
    expect([whole.status, whole.headers.get("content-type"), whole.headers.get("accept-ranges")]).toEqual([200, "video/mp4", "bytes"]);
    const bytes = await whole.arrayBuffer();
    const served = await probeServed(bytes);
    expect(served.video).toMatchObject({ codec_name: "h264", width: 320, height: 240 });
    // Nothing of where or when it was filmed, or with what, leaves in the playable copy.
    for (const tag of Object.keys(served.tags)) expect(tag).not.toMatch(/location|creation|make|model|com\.apple/i);

    const ranged = await owner.request(url, { headers: { Range: "bytes=100-199" } });
    expect([ranged.status, ranged.headers.get("content-range")]).toEqual([206, `bytes 100-199/${bytes.byteLength}`]);
    expect(new Uint8Array(await ranged.arrayBuffer())).toEqual(new Uint8Array(bytes.slice(100, 200)));
    const past = await owner.request(url, { headers: { Range: `bytes=${bytes.byteLength + 10}-` } });
    expect([past.status, past.headers.get("content-range")]).toEqual([416, `bytes */${bytes.byteLength}`]);
    // A Range whose If-Range names other bytes than these gets the whole copy (the route's answer; the owner's copy is private).
    const resumed = await owner.request(url, { headers: { Range: "bytes=100-199", "If-Range": '"an-earlier-copy.mp4"' } });
    expect([resumed.status, resumed.headers.get("content-range"), (await resumed.arrayBuffer()).byteLength]).toEqual([200, null, bytes.byteLength]);
  });

  it("HEVC 10-bit HLG MOV held upright: an upright poster, Apple's date with its offset, an H.264 copy", async () => {
    const { client: owner } = await signedInAs("editor");
    const photo = await waitForPlayable(owner, (await uploadOne(owner, mov, "IMG_0001.MOV", "video/quicktime")).id);
    const meta = TEST_CLIP_METADATA["hevc-hdr-mov"];
    expect(photo).toMatchObject({ status: "ready", width: 240, height: 320, takenAt: meta.takenAt });
    expect(photo.exif).toMatchObject({ cameraMake: "Apple", cameraModel: "iPhone 15 Pro" });
    expect(photo.location).toMatchObject({ latitude: meta.latitude, longitude: meta.longitude, altitude: 10 });
    const served = await probeServed(await (await owner.request(photo.video?.playableUrl as string)).arrayBuffer());
    expect(served.video).toMatchObject({ codec_name: "h264", width: 240, height: 320 });
    for (const tag of Object.keys(served.tags)) expect(tag).not.toMatch(/location|creation|make|model|com\.apple/i);
  });

  it("VP9 WebM through tus: transcoded to H.264", async () => {
    const { client: owner } = await signedInAs("editor");
    const uploadPath = await createUploadPath(owner, webm.length, "clip.webm");
    const finished = await patchUpload(owner, uploadPath, 0, webm);
    expect(finished.status, await finished.clone().text()).toBe(200);
    const { photo: uploaded } = (await finished.json()) as { photo: UploadedPhoto };
    const photo = await waitForPlayable(owner, uploaded.id);
    expect(photo).toMatchObject({ status: "ready", width: 320, height: 240, takenAt: null, location: null });
    const served = await probeServed(await (await owner.request(photo.video?.playableUrl as string)).arrayBuffer());
    expect(served.video.codec_name).toBe("h264");
  });
});

describe("who may have a video's bytes", () => {
  it("a private video is refused to other users and visitors; a share link plays its copy and tells nothing of its place", async () => {
    const { client: owner } = await signedInAs("editor");
    const { client: stranger } = await signedInAs("viewer");
    const photo = await waitForPlayable(owner, (await uploadOne(owner, mp4, "private.mp4")).id);
    expect(photo.visibility).toBe("private");
    const url = photo.video?.playableUrl as string;
    expect((await stranger.request(url)).status).toBe(404);
    expect((await new TestClient().request(url)).status).toBe(404);
    expect((await stranger.request(`/api/photos/${photo.id}/original`)).status).toBe(404);

    const created = await owner.request("/api/shares", { body: { json: { photoIds: [photo.id] } } });
    expect(created.status, await created.clone().text()).toBe(201);
    const key = ((await created.json()) as { share: { url: string } }).share.url.split("/s/")[1];
    const visitor = new TestClient();
    expect((await enterShareLink(visitor, key)).status).toBe(303);
    const listed = (await (await visitor.request(`/s/${key}/api/photos`)).json()) as { photos: Array<Record<string, unknown>> };
    expect(JSON.stringify(listed)).not.toMatch(/latitude|longitude|48\.85/);
    const storageKey = url.split("/").slice(3).join("/");
    const shared = await visitor.request(`/s/${key}/media/${storageKey}`, { headers: { Range: "bytes=0-9" } });
    expect([shared.status, shared.headers.get("content-type"), shared.headers.get("cache-control")]).toEqual([206, "video/mp4", "private, no-store"]);
    expect((await new TestClient().request(`/s/${key}/media/${storageKey}`)).status).not.toBe(206);
  });

  it("a public video plays for anyone, cached as public media; a download copy for others carries no place and never reads the video whole", async () => {
    const { client: owner } = await signedInAs("editor");
    const photo = await waitForPlayable(owner, (await uploadOne(owner, mp4, "public.mp4")).id);
    const patched = await owner.request(`/api/photos/${photo.id}`, { method: "PATCH", body: { json: { visibility: "public", allowDownload: true } } });
    expect(patched.status, await patched.clone().text()).toBe(200);
    const { photo: published } = (await patched.json()) as { photo: VideoDetail };
    const anonymous = new TestClient();
    const url = published.video?.playableUrl as string;
    const played = await anonymous.request(url, { headers: { Range: "bytes=0-1" } });
    expect([played.status, played.headers.get("content-type")]).toEqual([206, "video/mp4"]);
    expect(played.headers.get("cache-control")).toMatch(/public/);
    // That first Range went through the route (Next.js sends it chunked, without a length), which
    // offered the copy to server.mjs's fast path: the next ones are streamed from storage without
    // Next.js, and say their length.
    expect(played.headers.get("content-length")).toBeNull();
    const stored = await readStoredBytes(createStorage(inject("storageConfig")), url.split("/").slice(3).join("/"));
    const middle = Math.floor(stored.length / 2);
    const fast = await anonymous.request(url, { headers: { Range: `bytes=${middle}-${middle + 99}` } });
    expect([fast.status, fast.headers.get("content-length"), fast.headers.get("content-range")]).toEqual([206, "100", `bytes ${middle}-${middle + 99}/${stored.length}`]);
    expect(Buffer.from(await fast.arrayBuffer()).equals(stored.subarray(middle, middle + 100))).toBe(true);
    // If-Range: the part only for this copy's tag; the whole copy to a player holding other bytes.
    expect((await anonymous.request(url, { headers: { Range: "bytes=0-9", "If-Range": fast.headers.get("etag") ?? "" } })).status).toBe(206);
    const other = await anonymous.request(url, { headers: { Range: "bytes=0-9", "If-Range": '"another-copy.mp4"' } });
    expect([other.status, other.headers.get("content-range"), Buffer.from(await other.arrayBuffer()).equals(stored)]).toEqual([200, null, true]);
    expect((await anonymous.request(url, { headers: { Range: `bytes=${stored.length}-` } })).status).toBe(416);
    const { client: member } = await signedInAs("viewer");
    const detail = await detailOf(member, photo.id);
    expect([detail.location, detail.video?.playableUrl]).toEqual([null, published.video?.playableUrl]);
    const download = await anonymous.request(`/p/${photo.id}/download`);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("image/jpeg");
    expect(Buffer.from(await download.arrayBuffer()).toString("latin1")).not.toMatch(/48\.85|GPS/);
    // A turn is refused for a video, with the reason.
    const turned = await owner.request(`/api/photos/${photo.id}`, { method: "PATCH", body: { json: { rotation: 90 } } });
    expect(turned.status).toBe(422);
    // Made private: the very next Range request at the public URL is refused, fast path or not.
    expect((await owner.request(`/api/photos/${photo.id}`, { method: "PATCH", body: { json: { visibility: "private" } } })).status).toBe(200);
    expect((await anonymous.request(url, { headers: { Range: `bytes=${middle}-${middle + 99}` } })).status).toBe(404);
  });
});

describe("bad input is refused with a reason, and nothing is stored", () => {
  async function storedCount(): Promise<{ rows: number; keys: number }> {
    const { count } = await db.selectFrom("photos").select((eb) => eb.fn.countAll<number | string>().as("count")).executeTakeFirstOrThrow();
    return { rows: Number(count), keys: (await listStoredKeys(inject("storageConfig"))).filter((key) => key.startsWith("originals/")).length };
  }

  it.each<[string, () => Uint8Array<ArrayBuffer>, number, RegExp]>([
    ["truncated (its index cut off)", () => mp4.slice(0, Math.floor(mp4.length / 2)), 422, /cannot be read|no video|no length/],
    ["0 bytes", () => new Uint8Array(0), 400, /is empty/],
    ["not a video at all, named .mp4", () => new Uint8Array(Buffer.from("<html><script>alert(1)</script></html>")), 415, /not a photo we can read \(.*\) or a video\./],
  ])("%s", async (_name, bytes, status, message) => {
    const { client: owner } = await signedInAs("editor");
    const before = await storedCount();
    const response = await uploadFiles(owner, [{ bytes: bytes(), name: "clip.mp4", type: "video/mp4" }]);
    expect(response.status).toBe(status);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(message);
    expect(await storedCount()).toEqual(before);
  });

  it("a video named .jpg is taken as the video it is (the bytes decide)", async () => {
    const { client: owner } = await signedInAs("editor");
    const uploaded = await uploadOne(owner, mov, "not-a-photo.jpg", "image/jpeg");
    const photo = (await waitForProcessing(owner, uploaded.id)) as VideoDetail;
    expect(photo.status).toBe("ready");
    expect(photo.video?.durationMs).toBe(1000);
  });
});

describe("a server without ffmpeg", () => {
  it("starts, says so once, takes photos, and refuses videos with 415 and the reason", async () => {
    const admin = { email: "video-admin@example.test", password: "video-admin-password" };
    const app = await startTestApp(inject("databaseKind"), {
      ...testStorageFromEnvironment().env,
      NEXTAUTH_SECRET: TEST_SECRET,
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      FFMPEG_PATH: "/nonexistent/ffmpeg",
      FFPROBE_PATH: "/nonexistent/ffprobe",
    });
    try {
      const client = new TestClient(app.url);
      await client.signIn(admin.email, admin.password);
      const refused = await uploadFiles(client, [{ bytes: mp4, name: "clip.mp4", type: "video/mp4" }]);
      expect(refused.status).toBe(415);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
        '"clip.mp4" is a video, and this server cannot take videos: ffmpeg was not found at "/nonexistent/ffmpeg": videos are refused until it is installed (Debian: apt-get install ffmpeg) or FFMPEG_PATH names it.',
      );
      expect(app.server.output()).toMatch(/ffmpeg was not found at \\?"\/nonexistent\/ffmpeg/);
      const photo = await uploadFiles(client, [{ bytes: corpusFile("exif-samples/jpg/Canon_40D.jpg"), name: "photo.jpg" }]);
      expect(photo.status).toBe(201);
    } finally {
      await app.stop();
    }
  });
});
