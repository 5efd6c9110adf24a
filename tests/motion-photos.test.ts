// Motion photos over HTTP (issue 30): a phone's still with an MP4 appended is split on upload into
// the photo and its clip, kept beside it for the owner (GET /api/photos/[id]/motion); a file whose
// XMP points outside it is a still alone. src/images/motion/*.test.ts test the locator alone.
import { beforeAll, describe, expect, it } from "vitest";
import { motionPhotoJpeg, TINY_MP4 } from "@/src/images/motion/motion-photo-test-files";
import { corpusFile, uploadFiles, type UploadedPhoto, waitForProcessing } from "./helpers/photos";
import { signedInAs, type TestClient } from "./helpers/test-client";

let owner: TestClient;
let other: TestClient;

beforeAll(async () => {
  ({ client: owner } = await signedInAs("editor"));
  ({ client: other } = await signedInAs("editor"));
});

async function uploadOne(bytes: Buffer, name: string): Promise<UploadedPhoto> {
  const response = await uploadFiles(owner, [{ bytes: new Uint8Array(bytes), name }]);
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { photos: UploadedPhoto[] }).photos[0];
}

async function download(client: TestClient, url: string): Promise<{ status: number; bytes: Buffer; type: string | null }> {
  const response = await client.request(url);
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()), type: response.headers.get("content-type") };
}

describe("motion photos are split into the still and its clip", () => {
  it("Samsung's HEIC motion photo: the photo is the still, the MP4 its owner's clip, the original untouched", async () => {
    const bytes = Buffer.from(corpusFile("immich-test-assets/formats/motionphoto/samsung-one-ui-6.heic"));
    const uploaded = await uploadOne(bytes, "samsung-one-ui-6.heic");
    const clip = await download(owner, `/api/photos/${uploaded.id}/motion`);
    expect([clip.status, clip.type]).toEqual([200, "video/mp4"]);
    // The MP4 inside Samsung's mpvd box, without the trailer after it (ExifTool's MotionPhotoVideo).
    expect(clip.bytes.equals(bytes.subarray(452284, 452284 + 3226469))).toBe(true);
    expect(clip.bytes.toString("latin1", 4, 8)).toBe("ftyp");
    expect((await other.request(`/api/photos/${uploaded.id}/motion`)).status).not.toBe(200);
    expect((await download(owner, `/api/photos/${uploaded.id}/original`)).bytes.equals(bytes)).toBe(true);
    const photo = await waitForProcessing(owner, uploaded.id);
    expect([photo.status, photo.failureReason]).toEqual(["ready", null]);
  });

  it("a JPEG motion photo with the older MicroVideo offset", async () => {
    const { bytes } = await motionPhotoJpeg({ form: "micro-video" });
    const uploaded = await uploadOne(bytes, "PXL_motion.jpg");
    expect((await download(owner, `/api/photos/${uploaded.id}/motion`)).bytes.equals(TINY_MP4)).toBe(true);
    expect((await waitForProcessing(owner, uploaded.id)).status).toBe("ready");
  });

  it("offsets outside the file: the still alone, no clip", async () => {
    const { bytes } = await motionPhotoJpeg({ form: "attributes", lengthOverride: 50_000_000 });
    const uploaded = await uploadOne(bytes, "broken-motion.jpg");
    expect((await owner.request(`/api/photos/${uploaded.id}/motion`)).status).toBe(404);
    expect((await waitForProcessing(owner, uploaded.id)).status).toBe("ready");
  });
});
