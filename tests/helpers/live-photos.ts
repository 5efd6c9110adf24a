// A Live Photo pair made for tests: a small JPEG still with the Apple maker notes of a real iPhone
// Live Photo (the corpus's IMG_5195.HEIC, copied by ExifTool), and a 1 s MOV made by ffmpeg with
// Apple's content identifier, place and make, as an iPhone writes them. Each is made once per test
// file; a pair of another identifier is the same bytes with the 36-character identifier replaced
// (ExifTool and ffmpeg cost about a second each on a loaded machine, a replace nothing).
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
/** The identifier IMG_5195.HEIC carries, which the templates below carry too. */
const TEMPLATE_IDENTIFIER = "570F1469-09C7-4E50-9875-05F21D5BD166";

/** Where the MOVs made here say they were filmed. */
export const LIVE_MOV_LOCATION = { iso6709: "+48.8584+002.2945/", latitude: 48.8584 };

let stillTemplate: Promise<Buffer> | undefined;
let movTemplate: Promise<Buffer> | undefined;

async function makeStillTemplate(): Promise<Buffer> {
  const file = path.join(await mkdtemp(path.join(tmpdir(), "cs-live-")), "IMG_0001.JPG");
  await writeFile(file, await sharp({ create: { width: 96, height: 64, channels: 3, background: "#557799" } }).jpeg().toBuffer());
  await run(EXIFTOOL, ["-q", "-overwrite_original", "-tagsFromFile", IPHONE_LIVE_STILL, "-Make", "-Model", "-MakerNotes", file]);
  return readFile(file);
}

async function makeMovTemplate(): Promise<Buffer> {
  const file = path.join(await mkdtemp(path.join(tmpdir(), "cs-live-")), "IMG_0001.MOV");
  await run("ffmpeg", [
    "-hide_banner", "-loglevel", "error", "-y",
    "-f", "lavfi", "-i", "testsrc=size=160x120:rate=15:duration=1",
    "-f", "lavfi", "-i", "sine=frequency=440:duration=1",
    "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac",
    "-metadata", `com.apple.quicktime.content.identifier=${TEMPLATE_IDENTIFIER}`,
    "-metadata", `com.apple.quicktime.location.ISO6709=${LIVE_MOV_LOCATION.iso6709}`,
    "-metadata", "com.apple.quicktime.make=Apple",
    "-movflags", "+use_metadata_tags", file,
  ]);
  return readFile(file);
}

function withIdentifier(template: Buffer, contentIdentifier: string): Buffer {
  if (contentIdentifier.length !== TEMPLATE_IDENTIFIER.length) throw new Error("Test identifiers are 36 characters, as Apple's are");
  const bytes = Buffer.from(template);
  for (let at = bytes.indexOf(TEMPLATE_IDENTIFIER); at >= 0; at = bytes.indexOf(TEMPLATE_IDENTIFIER, at + 1)) bytes.write(contentIdentifier, at, "latin1");
  return bytes;
}

/** A Live Photo's still (96 × 64 JPEG) with this identifier (36 characters, as Apple's UUIDs). */
export async function makeLiveStill(contentIdentifier: string): Promise<Uint8Array<ArrayBuffer>> {
  stillTemplate ??= makeStillTemplate();
  return new Uint8Array(withIdentifier(await stillTemplate, contentIdentifier));
}

/**
 * A Live Photo's MOV with this identifier: 1 s, 160 × 120, H.264 with sound, Apple's place and make.
 * `take`: another take's bytes (its make says so), same identifier. `undecodable`: its frames
 * overwritten (container and identifier intact, so it is probed and accepted, but no frame decodes).
 */
export async function makeLiveMov(contentIdentifier: string, options: { undecodable?: boolean; take?: number } = {}): Promise<Uint8Array<ArrayBuffer>> {
  movTemplate ??= makeMovTemplate();
  const bytes = withIdentifier(await movTemplate, contentIdentifier);
  if (options.take) bytes.write(String(options.take % 10), bytes.indexOf("Apple", bytes.indexOf("com.apple.quicktime.make")) + 4, "latin1");
  if (options.undecodable) {
    const mdat = bytes.indexOf("mdat");
    bytes.fill(0x5a, mdat + 4, mdat - 4 + bytes.readUInt32BE(mdat - 4));
  }
  return new Uint8Array(bytes);
}
