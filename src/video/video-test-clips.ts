// Test clips made with the system's ffmpeg (tiny: 1 s, 320 × 240), for the video tests here and in
// tests/. Not imported by the app.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export type TestClipKind = "h264-mp4" | "hevc-hdr-mov" | "vp9-webm";

/** The place and date each clip carries, for tests to find (or not find) again. */
export const TEST_CLIP_METADATA = {
  "h264-mp4": { location: "+48.8584+002.2945/", latitude: 48.8584, longitude: 2.2945, takenAt: "2024-05-06T07:08:09+00:00", make: "Canon", model: "EOS R6" },
  "hevc-hdr-mov": { location: "+35.6586+139.7454+010.000/", latitude: 35.6586, longitude: 139.7454, takenAt: "2023-12-24T18:30:00+01:00", make: "Apple", model: "iPhone 15 Pro" },
} as const;

const SOURCE = ["-f", "lavfi", "-i", "testsrc=size=320x240:rate=15:duration=1", "-f", "lavfi", "-i", "sine=frequency=440:duration=1"];

/** Makes one clip in a new temporary folder and answers its path. */
export async function makeTestClip(kind: TestClipKind): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), "cs-clip-"));
  const base = ["-hide_banner", "-loglevel", "error", "-y", ...SOURCE];
  if (kind === "h264-mp4") {
    const meta = TEST_CLIP_METADATA[kind];
    const file = path.join(folder, "clip.mp4");
    await run("ffmpeg", [
      ...base, "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac",
      "-metadata", `location=${meta.location}`, "-metadata", "creation_time=2024-05-06T07:08:09Z",
      "-metadata", `make=${meta.make}`, "-metadata", `model=${meta.model}`, "-movflags", "+use_metadata_tags", file,
    ]);
    return file;
  }
  if (kind === "hevc-hdr-mov") {
    const meta = TEST_CLIP_METADATA[kind];
    const file = path.join(folder, "clip.mov");
    await run("ffmpeg", [
      ...base, "-c:v", "libx265", "-x265-params", "log-level=error", "-pix_fmt", "yuv420p10le", "-tag:v", "hvc1",
      "-color_primaries", "bt2020", "-color_trc", "arib-std-b67", "-colorspace", "bt2020nc", "-c:a", "aac",
      "-metadata", "com.apple.quicktime.creationdate=2023-12-24T18:30:00+0100",
      "-metadata", `com.apple.quicktime.location.ISO6709=${meta.location}`,
      "-metadata", `com.apple.quicktime.make=${meta.make}`, "-metadata", `com.apple.quicktime.model=${meta.model}`,
      "-movflags", "+use_metadata_tags", file,
    ]);
    // Debian's ffmpeg 5.1 has no -display_rotation: the track header's matrix is written as an
    // iPhone held upright writes it (turn 90° clockwise to show).
    await writeFile(file, setTrackMatrixToPortrait(await readFile(file)));
    return file;
  }
  const file = path.join(folder, "clip.webm");
  await run("ffmpeg", [...base, "-c:v", "libvpx-vp9", "-b:v", "100k", "-deadline", "realtime", "-c:a", "libopus", file]);
  return file;
}

function setTrackMatrixToPortrait(bytes: Buffer): Buffer {
  const at = bytes.indexOf("tkhd");
  if (at < 0) throw new Error("no tkhd box");
  const version = bytes[at + 4];
  // The matrix follows the header, times, track id, duration, reserved, layer, group, volume.
  const matrixOffset = at - 4 + (version === 0 ? 48 : 60);
  const matrix = [0, 0x10000, 0, -0x10000, 0, 0, 0, 0, 0x40000000];
  matrix.forEach((value, index) => bytes.writeInt32BE(value, matrixOffset + index * 4));
  return bytes;
}
