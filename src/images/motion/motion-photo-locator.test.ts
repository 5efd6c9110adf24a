import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { corpusPath } from "../image-test-helpers";
import { locateFromXmp, locateMotionClip } from "./motion-photo-locator";
import { motionPhotoJpeg, TINY_MP4 } from "./motion-photo-test-files";

const directory = mkdtempSync(path.join(tmpdir(), "motion-photo-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function write(name: string, bytes: Buffer): string {
  const filePath = path.join(directory, name);
  writeFileSync(filePath, bytes);
  return filePath;
}

describe("a motion photo's clip is found from its XMP", () => {
  it("Samsung's HEIC (One UI 6): the MP4 after the still, without Samsung's trailer", async () => {
    const answer = await locateMotionClip(corpusPath("immich-test-assets/formats/motionphoto/samsung-one-ui-6.heic"));
    // Checked against ExifTool's MotionPhotoVideo (3226469 bytes) and the mpvd box at 452276.
    expect(answer).toEqual({ kind: "clip", clip: { start: 452284, length: 3226469 } });
  });

  it("Google's Container directory in a JPEG, in attribute or element form", async () => {
    for (const form of ["attributes", "elements"] as const) {
      const { bytes, clipStart } = await motionPhotoJpeg({ form });
      expect(await locateMotionClip(write(`container-${form}.jpg`, bytes)), form).toEqual({ kind: "clip", clip: { start: clipStart, length: TINY_MP4.length } });
    }
  });

  it("the older GCamera:MicroVideoOffset", async () => {
    const { bytes, clipStart } = await motionPhotoJpeg({ form: "micro-video" });
    expect(await locateMotionClip(write("micro-video.jpg", bytes))).toEqual({ kind: "clip", clip: { start: clipStart, length: TINY_MP4.length } });
  });

  it("offsets outside the file, or pointing where no MP4 starts, leave the still alone with a reason", async () => {
    const outside = await motionPhotoJpeg({ form: "attributes", lengthOverride: 50_000_000 });
    const answer = await locateMotionClip(write("outside.jpg", outside.bytes));
    expect(answer).toMatchObject({ kind: "unusable", reason: expect.stringMatching(/outside the file/) as unknown });
    const misplaced = await motionPhotoJpeg({ form: "attributes", lengthOverride: TINY_MP4.length + 7 });
    expect(await locateMotionClip(write("misplaced.jpg", misplaced.bytes))).toMatchObject({ kind: "unusable", reason: expect.stringMatching(/no MP4 starts/) as unknown });
    expect(locateFromXmp('<Container:Item Item:Semantic="Primary"/><Container:Item Item:Semantic="MotionPhoto" Item:Length="-5"/>', 1000)).toMatchObject({ kind: "unusable" });
  });

  it("reads a JPEG's XMP from its header only: a packet after the image data is no metadata of it", async () => {
    // Every upload is searched; a 14 MB JPEG was read to its end (120 ms) where its header is a few kB.
    const { still } = await motionPhotoJpeg({ form: "micro-video" });
    const plain = await sharp({ create: { width: 96, height: 64, channels: 3, background: "#3a7d44" } }).jpeg().toBuffer();
    const packet = still.subarray(still.indexOf("<x:xmpmeta"), still.indexOf("</x:xmpmeta>") + "</x:xmpmeta>".length);
    expect(await locateMotionClip(write("packet-after-image.jpg", Buffer.concat([plain, packet, TINY_MP4])))).toEqual({ kind: "none" });
  });

  it("an ordinary JPEG, and one whose XMP names no motion, have no clip", async () => {
    expect(await locateMotionClip(corpusPath("exif-samples/jpg/Canon_40D.jpg"))).toEqual({ kind: "none" });
    expect(locateFromXmp('<rdf:Description xmp:Rating="3"/>', 1000)).toEqual({ kind: "none" });
  });
});
