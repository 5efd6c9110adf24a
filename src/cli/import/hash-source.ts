import { createHash } from "node:crypto";
import fs from "node:fs";
import { pipeline } from "node:stream/promises";
import type { ImportSource } from "./import-source";

const READ_BYTES = 1024 * 1024;
/** One read buffer, reused file after file: a read stream per file allocated 1 MiB each time, which cost more than hashing a small JPEG. */
let readBuffer: Buffer | null = null;

/** A file on disk, read in 1 MiB pieces through one file handle. */
async function hashFile(filePath: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash("sha256");
  const buffer = readBuffer ?? Buffer.allocUnsafe(READ_BYTES);
  readBuffer = null;
  const file = await fs.promises.open(filePath, "r");
  let bytes = 0;
  try {
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, READ_BYTES, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
      bytes += bytesRead;
    }
  } finally {
    await file.close();
    readBuffer = buffer;
  }
  return { sha256: hash.digest("hex"), bytes };
}

/**
 * A file of at most 1 MiB, read in one synchronous call: the promise API's open, read and close
 * cost about a millisecond a file here, more than hashing a 30 KB JPEG (200 such files: 0.22 s
 * against 0.03 s for sha256sum).
 */
function hashSmallFile(filePath: string): { sha256: string; bytes: number } {
  const bytes = fs.readFileSync(filePath);
  return { sha256: createHash("sha256").update(bytes).digest("hex"), bytes: bytes.length };
}

/** A zip entry (or anything else), streamed. */
async function hashStream(source: ImportSource): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash("sha256");
  let bytes = 0;
  await pipeline(await source.open(), async (chunks: AsyncIterable<Buffer>) => {
    for await (const chunk of chunks) {
      bytes += chunk.length;
      hash.update(chunk);
    }
  });
  return { sha256: hash.digest("hex"), bytes };
}

/** The SHA-256 of a source's bytes, lower-case hex; nothing is held whole. */
export async function hashSource(source: ImportSource): Promise<string> {
  const { sha256, bytes } = !source.filePath ? await hashStream(source) : source.size <= READ_BYTES ? hashSmallFile(source.filePath) : await hashFile(source.filePath);
  // A file that changed while it was read is hashed again on the next run, not sent half-known now.
  if (bytes !== source.size) throw new Error(`it changed while it was read (${bytes} bytes, ${source.size} expected)`);
  return sha256;
}
