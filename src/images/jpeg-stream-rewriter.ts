import { MalformedJpegError, rewriteJpegMetadata } from "./jpeg-metadata-rewriter";

/**
 * The lossless metadata rewrite of src/images/jpeg-metadata-rewriter.ts, split so that it can be
 * streamed with its length known before the first byte (the share ZIP's exact Content-Length):
 *
 * - the head (every segment before the first scan, where all metadata of a camera JPEG lives) is
 *   read on its own, with a ranged read, and rewritten exactly as the whole-file rewrite does it;
 * - the rest, from the first SOS to the end of the file, is streamed through unchanged in length:
 *   scans and tables pass byte for byte; what the whole-file rewrite would drop there (an APPn or
 *   comment between scans, and everything after the first image's EOI, such as MPF secondary
 *   images or an appended video) is overwritten with zeros instead (a segment becomes an all-zero
 *   comment, trailing bytes zeros that decoders ignore), so nothing of it leaves the server.
 *
 * So the copy's length is `rewritten head + (file size - first SOS offset)`, from the head alone.
 * For an ordinary JPEG (ends at its EOI, no metadata between scans) the bytes are exactly those of
 * rewriteJpegMetadata(file); src/images/jpeg-stream-rewriter.test.ts checks that on the corpus.
 */

const SOS = 0xda;
const EOI = 0xd9;
const COM = 0xfe;

/** Where the first scan starts in `head` (its SOS marker), or null when the head is too short to tell. Throws for a file that is not a walkable JPEG. */
export function findFirstScan(head: Buffer): number | null {
  if (head.length < 2) return null;
  if (head[0] !== 0xff || head[1] !== 0xd8) throw new MalformedJpegError("not a JPEG");
  let offset = 2;
  for (;;) {
    if (offset + 2 > head.length) return null;
    if (head[offset] !== 0xff) throw new MalformedJpegError("expected a marker");
    const marker = head[offset + 1];
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    if (marker === SOS) return offset;
    if (marker === EOI) throw new MalformedJpegError("no image data before the end");
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2;
      continue;
    }
    if (offset + 4 > head.length) return null;
    offset += 2 + head.readUInt16BE(offset + 2);
  }
}

/** The rewritten head (SOI up to, not including, the first SOS) with `exif` as its only EXIF. */
export function rewriteJpegHead(head: Buffer, firstScan: number, exif: Buffer | null): Buffer {
  const rewritten = rewriteJpegMetadata(Buffer.concat([head.subarray(0, firstScan), Buffer.from([0xff, EOI])]), exif);
  return rewritten.subarray(0, rewritten.length - 2);
}

type State =
  | { kind: "marker"; seenFf: boolean } // at the top level, expecting FF and a marker byte
  | { kind: "length"; marker: number; bytes: number[] } // reading a segment's two length bytes
  | { kind: "segment"; remaining: number; zero: boolean; thenScan: boolean } // inside a segment's data
  | { kind: "scan"; seenFf: boolean } // inside entropy-coded data
  | { kind: "trailing" }; // after the first image's EOI, or after something that does not parse: all zeros

/**
 * Streams the part of a JPEG from its first SOS on, with the same length, zeroing what the rewrite
 * drops (see above). Feed chunks in order; each answer has the chunk's length.
 */
export class JpegTailSanitizer {
  private state: State = { kind: "marker", seenFf: false };
  /** True once something was zeroed (for the logs and tests). */
  changedSomething = false;

  push(chunk: Uint8Array): Uint8Array {
    let out: Uint8Array | null = null;
    const zero = (from: number, to: number) => {
      if (to <= from) return;
      out ??= Uint8Array.from(chunk);
      out.fill(0, from, to);
      this.changedSomething = true;
    };
    let index = 0;
    while (index < chunk.length) {
      const state = this.state;
      switch (state.kind) {
        case "trailing":
          zero(index, chunk.length);
          index = chunk.length;
          break;
        case "scan": {
          if (state.seenFf) {
            const next = chunk[index];
            if (next === 0x00 || next === 0xff || (next >= 0xd0 && next <= 0xd7)) {
              state.seenFf = next === 0xff;
              index += 1;
              break;
            }
            // A marker that ends the scan data: handled at the top level, from its FF.
            this.state = { kind: "marker", seenFf: true };
            break;
          }
          const ff = chunk.indexOf(0xff, index);
          if (ff < 0) {
            index = chunk.length;
            break;
          }
          state.seenFf = true;
          index = ff + 1;
          break;
        }
        case "marker": {
          const byte = chunk[index];
          if (!state.seenFf) {
            if (byte !== 0xff) {
              this.state = { kind: "trailing" };
              break;
            }
            state.seenFf = true;
            index += 1;
            break;
          }
          if (byte === 0xff) {
            index += 1; // fill byte
            break;
          }
          if (byte === EOI) {
            this.state = { kind: "trailing" };
            index += 1;
            break;
          }
          if (byte === 0x01 || (byte >= 0xd0 && byte <= 0xd7)) {
            this.state = { kind: "marker", seenFf: false };
            index += 1;
            break;
          }
          const isDropped = (byte >= 0xe0 && byte <= 0xef) || byte === COM;
          if (isDropped) {
            // The segment stays (its length is needed), turned into a comment whose bytes are zeros.
            out ??= Uint8Array.from(chunk);
            out[index] = COM;
            this.changedSomething = true;
          }
          this.state = { kind: "length", marker: byte, bytes: [] };
          index += 1;
          break;
        }
        case "length": {
          state.bytes.push(chunk[index]);
          index += 1;
          if (state.bytes.length === 2) {
            const length = (state.bytes[0] << 8) | state.bytes[1];
            if (length < 2) {
              this.state = { kind: "trailing" };
              break;
            }
            const isDropped = (state.marker >= 0xe0 && state.marker <= 0xef) || state.marker === COM;
            this.state = { kind: "segment", remaining: length - 2, zero: isDropped, thenScan: state.marker === SOS };
          }
          break;
        }
        case "segment": {
          const take = Math.min(state.remaining, chunk.length - index);
          if (state.zero) zero(index, index + take);
          index += take;
          state.remaining -= take;
          if (state.remaining === 0) this.state = state.thenScan ? { kind: "scan", seenFf: false } : { kind: "marker", seenFf: false };
          break;
        }
      }
    }
    // A segment of zero data ends at once.
    if (this.state.kind === "segment" && this.state.remaining === 0) {
      this.state = this.state.thenScan ? { kind: "scan", seenFf: false } : { kind: "marker", seenFf: false };
    }
    return out ?? chunk;
  }
}
