// A Live Photo pair made for tests: a small JPEG still with the Apple maker notes of a real iPhone
// Live Photo (the corpus's IMG_5195.HEIC, copied by ExifTool) and its content identifier set, and a
// 1 s MOV made by ffmpeg with the same identifier and a place, as an iPhone writes them.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { CORPUS } from "./photos";

const run = promisify(execFile);
const EXIFTOOL = path.resolve(import.meta.dirname, "../../node_modules/exiftool-vendored.pl/bin/exiftool");
const IPHONE_LIVE_STILL = path.join(CORPUS, "exif-samples/heic/IMG_5195.HEIC");

/** Where the MOVs made here say they were filmed. */
export const LIVE_MOV_LOCATION = { iso6709: "+48.8584+002.2945/", latitude: 48.8584 };

/** A still of a Live Photo, 96 × 64 (its colour makes its bytes differ from another's). */
export async function makeLiveStill(contentIdentifier: string, colour = "#557799"): Promise<Uint8Array<ArrayBuffer>> {
  const folder = await mkdtemp(path.join(tmpdir(), "cs-live-"));
  const file = path.join(folder, "IMG_0001.JPG");
  await writeFile(file, await sharp({ create: { width: 96, height: 64, channels: 3, background: colour } }).jpeg().toBuffer());
  await run(EXIFTOOL, ["-q", "-overwrite_original", "-tagsFromFile", IPHONE_LIVE_STILL, "-Make", "-Model", "-MakerNotes", file]);
  await run(EXIFTOOL, ["-q", "-overwrite_original", `-Apple:ContentIdentifier=${contentIdentifier}`, file]);
  return new Uint8Array(await readFile(file));
}

/**
 * A Live Photo's MOV: 1 s, 160 × 120, H.264 with sound, Apple's content identifier, place and
 * make. `undecodable`: its frames overwritten (the container and identifier intact, so it is
 * probed and accepted, but no frame decodes). `frequency` makes two MOVs' bytes differ.
 */
export async function makeLiveMov(contentIdentifier: string, options: { undecodable?: boolean; frequency?: number } = {}): Promise<Uint8Array<ArrayBuffer>> {
  const folder = await mkdtemp(path.join(tmpdir(), "cs-live-"));
  const file = path.join(folder, "IMG_0001.MOV");
  await run("ffmpeg", [
    "-hide_banner", "-loglevel", "error", "-y",
    "-f", "lavfi", "-i", "testsrc=size=160x120:rate=15:duration=1",
    "-f", "lavfi", "-i", `sine=frequency=${options.frequency ?? 440}:duration=1`,
    "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac",
    "-metadata", `com.apple.quicktime.content.identifier=${contentIdentifier}`,
    "-metadata", `com.apple.quicktime.location.ISO6709=${LIVE_MOV_LOCATION.iso6709}`,
    "-metadata", "com.apple.quicktime.make=Apple",
    "-movflags", "+use_metadata_tags", file,
  ]);
  const bytes = await readFile(file);
  if (options.undecodable) {
    const mdat = bytes.indexOf("mdat");
    bytes.fill(0x5a, mdat + 4, mdat - 4 + bytes.readUInt32BE(mdat - 4));
  }
  return new Uint8Array(bytes);
}
