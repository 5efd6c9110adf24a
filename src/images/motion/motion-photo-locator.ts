import { open } from "node:fs/promises";

/** Where a motion photo's clip lies in its file. */
export interface MotionClipLocation {
  start: number;
  length: number;
}

/**
 * What a file says about an appended clip: none (an ordinary photo), where it is, or why the clip
 * it announces cannot be taken (offsets outside the file, no MP4 where they point).
 */
export type MotionPhotoAnswer = { kind: "none" } | { kind: "clip"; clip: MotionClipLocation } | { kind: "unusable"; reason: string };

/** The XMP packet is looked for this far into the file (a phone writes it near the start, or after a HEIC's image data). */
const XMP_SEARCH_BYTES = 16 * 1024 * 1024;
const CHUNK_BYTES = 1024 * 1024;
/** An XMP packet longer than this is not a phone's. */
const MAXIMUM_XMP_BYTES = 256 * 1024;

/**
 * Finds the MP4 a phone appended to a JPEG or HEIC still (Android motion photos, Samsung's too),
 * from the still's XMP: Google's Container directory (`Container:Item` with `Item:Semantic=
 * "MotionPhoto"`, `Item:Length` and `Item:Padding`; secondary items are laid end to end up to the
 * file's end, each item's padding after its data), or the older `GCamera:MicroVideoOffset` (the
 * clip is the file's last that many bytes). The clip must lie inside the file and start with an
 * MP4 `ftyp` box; otherwise the answer says why and the photo is kept as a still alone.
 */
export async function locateMotionClip(filePath: string): Promise<MotionPhotoAnswer> {
  const file = await open(filePath, "r");
  try {
    const { size } = await file.stat();
    const xmp = await findXmpPacket(file, (await jpegHeaderBytes(file)) ?? XMP_SEARCH_BYTES + MAXIMUM_XMP_BYTES);
    if (!xmp) return { kind: "none" };
    const located = locateFromXmp(xmp, size);
    if (located.kind !== "clip") return located;
    const head = Buffer.alloc(8);
    await file.read(head, 0, 8, located.clip.start);
    if (head.toString("latin1", 4, 8) !== "ftyp") {
      return { kind: "unusable", reason: `the XMP points at byte ${located.clip.start}, where no MP4 starts` };
    }
    return located;
  } finally {
    await file.close();
  }
}

/** Where the XMP's directory or offset puts the clip in a file of `size` bytes. */
export function locateFromXmp(xmp: string, size: number): MotionPhotoAnswer {
  const items = readContainerItems(xmp);
  if (items.length > 0) {
    const motionIndex = items.findIndex((item) => item.Semantic === "MotionPhoto");
    if (motionIndex <= 0) return { kind: "none" };
    // Secondary items end at the file's end, in order: the clip starts after those before it.
    let end = size;
    for (let index = items.length - 1; index > motionIndex; index -= 1) end -= readLength(items[index].Length) ?? Number.NaN;
    const length = readLength(items[motionIndex].Length);
    const padding = readLength(items[motionIndex].Padding) ?? 0;
    if (length === null || length <= padding) return { kind: "unusable", reason: "the XMP gives the clip no usable length" };
    return within({ start: end - length, length: length - padding }, size);
  }
  const microVideoOffset = readLength(readXmpValue(xmp, "GCamera:MicroVideoOffset"));
  if (readXmpValue(xmp, "GCamera:MicroVideo") === "1" && microVideoOffset !== null) {
    return within({ start: size - microVideoOffset, length: microVideoOffset }, size);
  }
  return { kind: "none" };
}

function within(clip: MotionClipLocation, size: number): MotionPhotoAnswer {
  if (!(Number.isSafeInteger(clip.start) && clip.start > 0 && clip.length > 0 && clip.start + clip.length <= size)) {
    return { kind: "unusable", reason: `the XMP puts the clip outside the file (bytes ${clip.start} to ${clip.start + clip.length} of ${size})` };
  }
  return { kind: "clip", clip };
}

function readLength(value: string | undefined | null): number | null {
  if (value === undefined || value === null || !/^\d{1,15}$/.test(value.trim())) return null;
  return Number(value.trim());
}

/** Each `Container:Item`'s fields, written as attributes or as child elements. */
function readContainerItems(xmp: string): Array<Record<string, string>> {
  const items: Array<Record<string, string>> = [];
  for (const match of xmp.matchAll(/<Container:Item\b([^>]*?)(\/>|>([\s\S]*?)<\/Container:Item>)/g)) {
    const fields: Record<string, string> = {};
    for (const attribute of match[1].matchAll(/Item:(\w+)\s*=\s*"([^"]*)"/g)) fields[attribute[1]] = attribute[2];
    for (const element of (match[3] ?? "").matchAll(/<Item:(\w+)>([^<]*)<\/Item:\1>/g)) fields[element[1]] = element[2];
    items.push(fields);
  }
  return items;
}

function readXmpValue(xmp: string, name: string): string | null {
  const escaped = name.replace(":", "\\:");
  return new RegExp(`${escaped}\\s*=\\s*"([^"]*)"`).exec(xmp)?.[1] ?? new RegExp(`<${escaped}>([^<]*)</${escaped}>`).exec(xmp)?.[1] ?? null;
}

/**
 * A JPEG's XMP lives in its APP1 segments, which all come before the image data: the bytes up to the
 * start-of-scan marker, found by walking the segments' lengths (a few small reads). Null for a file
 * that is not a JPEG, or whose segments cannot be walked; its search then goes the whole way.
 */
async function jpegHeaderBytes(file: Awaited<ReturnType<typeof open>>): Promise<number | null> {
  const marker = Buffer.alloc(4);
  let offset = 2;
  if ((await file.read(marker, 0, 2, 0)).bytesRead < 2 || marker[0] !== 0xff || marker[1] !== 0xd8) return null;
  for (let segments = 0; segments < 1000; segments += 1) {
    if ((await file.read(marker, 0, 4, offset)).bytesRead < 4 || marker[0] !== 0xff) return null;
    const code = marker.readUInt8(1);
    // Start of scan: the image data follows, and no metadata segment comes after it.
    if (code === 0xda) return offset;
    // Fill bytes before a marker.
    if (code === 0xff) {
      offset += 1;
      continue;
    }
    offset += 2 + marker.readUInt16BE(2);
  }
  return null;
}

const PACKET_START = Buffer.from("<x:xmpmeta", "latin1");
const PACKET_END = Buffer.from("</x:xmpmeta>", "latin1");

/**
 * The first XMP packet that mentions a motion photo within the file's first `end` bytes, read in
 * chunks. The bytes are searched as bytes and only a packet is made a string: every upload passes
 * here, and turning each megabyte of an ordinary 14 MB JPEG into text cost 120 ms of the upload's
 * request (bench:ingest).
 */
async function findXmpPacket(file: Awaited<ReturnType<typeof open>>, end: number): Promise<string | null> {
  const chunk = Buffer.alloc(Math.min(CHUNK_BYTES + MAXIMUM_XMP_BYTES, end));
  for (let offset = 0; offset < end; offset += CHUNK_BYTES) {
    const wanted = Math.min(chunk.length, end - offset);
    const { bytesRead } = await file.read(chunk, 0, wanted, offset);
    const bytes = chunk.subarray(0, bytesRead);
    let start = bytes.indexOf(PACKET_START);
    while (start !== -1 && start < CHUNK_BYTES) {
      const packetEnd = bytes.indexOf(PACKET_END, start);
      if (packetEnd === -1) break;
      const packet = bytes.toString("latin1", start, packetEnd);
      if (/MotionPhoto|MicroVideo/.test(packet)) return packet;
      start = bytes.indexOf(PACKET_START, packetEnd);
    }
    if (bytesRead < wanted) break;
  }
  return null;
}
