import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { makeTestClip } from "./video-test-clips";
import { detectVideoType, type VideoType } from "./video-type-detector";

const text = (value: string) => new TextEncoder().encode(value);

function ftyp(major: string, compatible: string[]): Uint8Array {
  const size = 16 + compatible.length * 4;
  const bytes = new Uint8Array(size + 8);
  new DataView(bytes.buffer).setUint32(0, size);
  bytes.set(text(`ftyp${major}`), 4);
  compatible.forEach((brand, index) => bytes.set(text(brand), 16 + index * 4));
  return bytes;
}

describe("detectVideoType", () => {
  it.each<[string, Uint8Array, VideoType]>([
    ["an MP4", ftyp("isom", ["isom", "iso2", "avc1", "mp41"]), "mp4"],
    ["a QuickTime movie", ftyp("qt  ", ["qt  "]), "mov"],
    ["an iTunes M4V", ftyp("M4V ", ["M4V ", "M4A ", "mp42", "isom"]), "m4v"],
    ["a 3GP", ftyp("3gp4", ["isom", "3gp4"]), "3gp"],
    ["an unknown brand promising MP4", ftyp("abcd", ["mp42"]), "mp4"],
    ["a QuickTime movie without ftyp", new Uint8Array([0, 0, 0, 8, ...text("wide"), 0, 0, 0, 8, ...text("mdat")]), "mov"],
    ["an AVI", new Uint8Array([...text("RIFF"), 0, 0, 0, 0, ...text("AVI LIST")]), "avi"],
  ])("recognises %s", (_name, head, expected) => {
    expect(detectVideoType(head)).toBe(expected);
  });

  it("recognises MPEG transport streams with and without AVCHD's time codes", () => {
    const ts = new Uint8Array(256);
    ts[0] = 0x47;
    ts[188] = 0x47;
    expect(detectVideoType(ts)).toBe("mts");
    const mts = new Uint8Array(256);
    mts[4] = 0x47;
    mts[196] = 0x47;
    expect(detectVideoType(mts)).toBe("mts");
  });

  it.each<[string, Uint8Array]>([
    ["HEIC", ftyp("heic", ["mif1", "heic"])],
    ["AVIF", ftyp("avif", ["avif", "mif1"])],
    ["Canon CR3", ftyp("crx ", ["crx ", "isom"])],
    ["a JPEG", new Uint8Array([0xff, 0xd8, 0xff, 0xe0])],
    ["a WebP (RIFF, not AVI)", new Uint8Array([...text("RIFF"), 0, 0, 0, 0, ...text("WEBPVP8 ")])],
    ["HTML", text("<!doctype html><html>")],
    ["nothing", new Uint8Array(0)],
  ])("refuses %s", (_name, head) => {
    expect(detectVideoType(head)).toBeNull();
  });

  it.each<[Parameters<typeof makeTestClip>[0], VideoType]>([
    ["h264-mp4", "mp4"],
    ["hevc-hdr-mov", "mov"],
    ["vp9-webm", "webm"],
  ])("recognises a %s clip made by ffmpeg", async (kind, expected) => {
    const bytes = await readFile(await makeTestClip(kind));
    expect(detectVideoType(bytes.subarray(0, 256))).toBe(expected);
  });
});
