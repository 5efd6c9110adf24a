import { readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { decidePlayableCopy } from "./playable-copy";
import { makeTestClip, TEST_CLIP_METADATA } from "./video-test-clips";
import { DEFAULT_VIDEO_MAX_PIXELS, parseIso6709, parseProbeOutput, probeVideo, UnreadableVideoError, type VideoProbe } from "./video-probe";

const tools = { ffmpegPath: "ffmpeg", ffprobePath: "ffprobe", timeoutSeconds: 30 };
const limits = { maxDurationSeconds: 3600, maxPixels: DEFAULT_VIDEO_MAX_PIXELS };

describe("probeVideo on clips made by ffmpeg", () => {
  it("H.264 MP4: size, codecs, QuickTime creation_time as UTC, ISO 6709 place, camera", async () => {
    const probe = await probeVideo(tools, await makeTestClip("h264-mp4"), "mp4", limits);
    const meta = TEST_CLIP_METADATA["h264-mp4"];
    expect(probe).toMatchObject({
      durationMs: 1000, width: 320, height: 240, rotation: 0, videoCodec: "h264", audioCodec: "aac", isHdr: false,
      takenAt: meta.takenAt, gps: { latitude: meta.latitude, longitude: meta.longitude, altitude: null }, cameraMake: meta.make, cameraModel: meta.model,
    });
    expect(decidePlayableCopy("mp4", probe, 20_000_000)).toBe("remux");
    expect(decidePlayableCopy("mp4", probe, 1000)).toBe("transcode");
  });

  it("HEVC 10-bit HLG MOV held upright: turned size, Apple's local date with its offset, altitude", async () => {
    const probe = await probeVideo(tools, await makeTestClip("hevc-hdr-mov"), "mov", limits);
    const meta = TEST_CLIP_METADATA["hevc-hdr-mov"];
    expect(probe).toMatchObject({
      width: 240, height: 320, rotation: 90, videoCodec: "hevc", pixelFormat: "yuv420p10le", isHdr: true,
      takenAt: meta.takenAt, gps: { latitude: meta.latitude, longitude: meta.longitude, altitude: 10 }, cameraMake: "Apple", cameraModel: "iPhone 15 Pro",
    });
    expect(decidePlayableCopy("mov", probe, 20_000_000)).toBe("transcode");
  });

  it("VP9 WebM: no date, no place, transcoded for every browser", async () => {
    const probe = await probeVideo(tools, await makeTestClip("vp9-webm"), "webm", limits);
    expect(probe).toMatchObject({ videoCodec: "vp9", audioCodec: "opus", takenAt: null, gps: null });
    expect(decidePlayableCopy("webm", probe, 20_000_000)).toBe("transcode");
  });

  it("refuses a truncated file, a 0-byte file and a video past the length limit, with reasons", async () => {
    const clip = await makeTestClip("h264-mp4");
    const bytes = await readFile(clip);
    const truncated = path.join(tmpdir(), `cs-truncated-${process.pid}.mp4`);
    // The moov box (the index) is at the end without faststart: cut before it, nothing can be read.
    await writeFile(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
    await expect(probeVideo(tools, truncated, "mp4", limits)).rejects.toThrow(UnreadableVideoError);
    const empty = path.join(tmpdir(), `cs-empty-${process.pid}.mp4`);
    await writeFile(empty, Buffer.alloc(0));
    await expect(probeVideo(tools, empty, "mp4", limits)).rejects.toThrow(UnreadableVideoError);
    await expect(probeVideo(tools, clip, "mp4", { ...limits, maxDurationSeconds: 0.5 })).rejects.toThrow(/longest accepted/);
    await expect(probeVideo(tools, clip, "mp4", { ...limits, maxPixels: 1000 })).rejects.toThrow(/largest accepted/);
  });
});

describe("parseProbeOutput", () => {
  const stream = { codec_type: "video", codec_name: "h264", width: 1920, height: 1080, pix_fmt: "yuv420p" };

  it("skips a cover picture and reads the real video stream", () => {
    const probe = parseProbeOutput({
      streams: [{ ...stream, codec_name: "mjpeg", width: 600, height: 600, disposition: { attached_pic: 1 } }, stream],
      format: { duration: "12.5" },
    });
    expect([probe.videoCodec, probe.width, probe.durationMs]).toEqual(["h264", 1920, 12_500]);
  });

  it("takes the old clockwise rotate tag and the display matrix, and swaps the size when sideways", () => {
    expect(parseProbeOutput({ streams: [{ ...stream, tags: { rotate: "270" } }], format: { duration: "1" } })).toMatchObject({ rotation: 270, width: 1080, height: 1920 });
    expect(parseProbeOutput({ streams: [{ ...stream, side_data_list: [{ rotation: 180 }] }], format: { duration: "1" } }).rotation).toBe(180);
  });

  it("ignores zero dates and keeps hostile text short and free of control characters", () => {
    const probe = parseProbeOutput({
      streams: [stream],
      format: { duration: "1", tags: { creation_time: "1970-01-01T00:00:00.000000Z", make: `Evil\u0000\u001b[31m${"x".repeat(500)}` } },
    });
    expect(probe.takenAt).toBeNull();
    expect(probe.cameraMake).toMatch(/^Evil\[31mx+$/);
    expect(probe.cameraMake?.length).toBe(100);
  });

  it("reads a Live Photo MOV's content identifier, and ignores one of 10 kB or with control characters", () => {
    const withIdentifier = (value: string) =>
      parseProbeOutput({ streams: [stream], format: { duration: "1", tags: { "com.apple.quicktime.content.identifier": value } } }).contentIdentifier;
    expect(withIdentifier("570F1469-09C7-4E50-9875-05F21D5BD166")).toBe("570F1469-09C7-4E50-9875-05F21D5BD166");
    expect(withIdentifier("A".repeat(10_000))).toBeNull();
    expect(withIdentifier("570F1469\u0000-09C7")).toBeNull();
    expect(parseProbeOutput({ streams: [stream], format: { duration: "1" } }).contentIdentifier).toBeNull();
  });

  it.each<[unknown]>([[{}], [{ streams: [{ codec_type: "audio" }] }], [{ streams: [stream], format: { duration: "N/A" } }], [null]])("refuses %j", (raw) => {
    expect(() => parseProbeOutput(raw)).toThrow(UnreadableVideoError);
  });
});

describe("parseIso6709", () => {
  it.each<[string, VideoProbe["gps"]]>([
    ["+48.8584+002.2945/", { latitude: 48.8584, longitude: 2.2945, altitude: null }],
    ["-33.8568+151.2153+025.500/", { latitude: -33.8568, longitude: 151.2153, altitude: 25.5 }],
    ["+12.3456-045.6789/", { latitude: 12.3456, longitude: -45.6789, altitude: null }],
    ["+91.0000+000.0000/", null],
    ["somewhere", null],
  ])("%s", (value, expected) => {
    expect(parseIso6709(value)).toEqual(expected);
  });
});
