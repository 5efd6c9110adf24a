import { crc32 } from "node:zlib";

/**
 * A STORED ZIP writer, byte for byte the format client-zip 2.5 writes (local header with a data
 * descriptor, UTF-8 names, Zip64 sizes and offsets past 4 GiB, the Zip64 end records when needed),
 * with one change: CRC-32 by zlib.crc32 (native, Node ≥ 20.15), not in JavaScript. client-zip's
 * own CRC capped the whole ZIP at about 260-340 MB/s, a quarter of reading the files
 * (docs/benchmarks.md, bench:share-zip); this one runs at several GB/s. src/shares/share-zip.test.ts
 * checks the bytes against client-zip's, Zip64 included, and the length against its predictLength.
 */

const LOCAL_HEADER = 0x504b0304;
const DATA_DESCRIPTOR = 0x504b0708;
const CENTRAL_HEADER = 0x504b0102;
const ZIP64_END = 0x504b0606;
const ZIP64_LOCATOR = 0x504b0607;
const END = 0x504b0506;
const MAX_32 = 0xffffffffn;
const FILE_MODE = 0o664;
// Version 4.5 needed (Zip64), data descriptor and UTF-8 flags.
const LOCAL_VERSION_AND_FLAGS = 0x2d000808;
const CENTRAL_VERSIONS = 0x2d032d00;
const FLAGS = 0x0808;

const clamp32 = (value: bigint) => Math.min(0xffffffff, Number(value));
const clamp16 = (value: bigint) => Math.min(0xffff, Number(value));
const bytesOf = (view: DataView) => new Uint8Array(view.buffer);

function writeDosTime(date: Date, view: DataView, at: number): void {
  const time = (date.getSeconds() >> 1) | (date.getMinutes() << 5) | (date.getHours() << 11);
  const day = date.getDate() | ((date.getMonth() + 1) << 5) | ((date.getFullYear() - 1980) << 9);
  view.setUint16(at, time, true);
  view.setUint16(at + 2, day, true);
}

export interface ZipWriterEntry {
  name: string;
  size: number;
  lastModified: Date;
  /** Must yield exactly `size` bytes, else the writer throws (the length was promised). */
  data: AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
}

/** The exact length of the ZIP of entries with these names and sizes (client-zip's predictLength). */
export function zipLength(entries: Iterable<{ name: string; size: number }>): number {
  let centralDirectory = 22n;
  let offset = 0n;
  let needsZip64 = false;
  const encoder = new TextEncoder();
  for (const entry of entries) {
    const nameLength = BigInt(encoder.encode(entry.name).length);
    const size = BigInt(entry.size);
    const isLarge = size >= MAX_32;
    const isFar = offset >= MAX_32;
    offset += 46n + nameLength + (isLarge ? 8n : 0n) + size;
    centralDirectory += nameLength + 46n + BigInt((isFar ? 12 : 0) | (isLarge ? 28 : 0));
    needsZip64 ||= isLarge;
  }
  if (needsZip64 || offset >= MAX_32) centralDirectory += 76n;
  return Number(centralDirectory + offset);
}

/** The ZIP's bytes, entry after entry as they are pulled, then the central directory. */
export async function* writeZip(entries: AsyncIterable<ZipWriterEntry>): AsyncGenerator<Uint8Array> {
  const central: Uint8Array[] = [];
  const encoder = new TextEncoder();
  let offset = 0n;
  let count = 0n;
  let needsZip64 = false;
  for await (const entry of entries) {
    const name = encoder.encode(entry.name);
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, LOCAL_HEADER);
    local.setUint32(4, LOCAL_VERSION_AND_FLAGS);
    writeDosTime(entry.lastModified, local, 10);
    local.setUint16(26, name.length, true);
    yield bytesOf(local);
    yield name;

    let crc = 0;
    let size = 0n;
    for await (const chunk of entry.data) {
      crc = crc32(chunk, crc);
      size += BigInt(chunk.length);
      yield chunk;
    }
    if (size !== BigInt(entry.size)) throw new Error(`${entry.name}: ${size} bytes, not the ${entry.size} promised`);

    const isLarge = size >= MAX_32;
    const extraLength = (offset >= MAX_32 ? 12 : 0) | (isLarge ? 28 : 0);
    const descriptor = new DataView(new ArrayBuffer(isLarge ? 24 : 16));
    descriptor.setUint32(0, DATA_DESCRIPTOR);
    descriptor.setUint32(4, crc, true);
    if (isLarge) {
      descriptor.setBigUint64(8, size, true);
      descriptor.setBigUint64(16, size, true);
    } else {
      descriptor.setUint32(8, clamp32(size), true);
      descriptor.setUint32(12, clamp32(size), true);
    }
    yield bytesOf(descriptor);

    const header = new DataView(new ArrayBuffer(46));
    header.setUint32(0, CENTRAL_HEADER);
    header.setUint32(4, CENTRAL_VERSIONS);
    header.setUint16(8, FLAGS);
    writeDosTime(entry.lastModified, header, 12);
    header.setUint32(16, crc, true);
    header.setUint32(20, clamp32(size), true);
    header.setUint32(24, clamp32(size), true);
    header.setUint16(28, name.length, true);
    header.setUint16(30, extraLength, true);
    header.setUint16(40, FILE_MODE | 0o100000, true);
    header.setUint32(42, clamp32(offset), true);
    central.push(bytesOf(header), name);
    if (extraLength) {
      const extra = new DataView(new ArrayBuffer(extraLength));
      extra.setUint16(0, 1, true);
      extra.setUint16(2, extraLength - 4, true);
      if (extraLength & 16) {
        extra.setBigUint64(4, size, true);
        extra.setBigUint64(12, size, true);
      }
      extra.setBigUint64(extraLength - 8, offset, true);
      central.push(bytesOf(extra));
    }
    if (isLarge) offset += 8n;
    count += 1n;
    offset += BigInt(46 + name.length) + size;
    needsZip64 ||= isLarge;
  }

  let centralLength = 0n;
  for (const part of central) {
    yield part;
    centralLength += BigInt(part.length);
  }
  if (needsZip64 || offset >= MAX_32) {
    const zip64 = new DataView(new ArrayBuffer(76));
    zip64.setUint32(0, ZIP64_END);
    zip64.setBigUint64(4, 44n, true);
    zip64.setUint32(12, CENTRAL_VERSIONS);
    zip64.setBigUint64(24, count, true);
    zip64.setBigUint64(32, count, true);
    zip64.setBigUint64(40, centralLength, true);
    zip64.setBigUint64(48, offset, true);
    zip64.setUint32(56, ZIP64_LOCATOR);
    zip64.setBigUint64(64, offset + centralLength, true);
    zip64.setUint32(72, 1, true);
    yield bytesOf(zip64);
  }
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, END);
  end.setUint16(8, clamp16(count), true);
  end.setUint16(10, clamp16(count), true);
  end.setUint32(12, clamp32(centralLength), true);
  end.setUint32(16, clamp32(offset), true);
  yield bytesOf(end);
}
