import { createHash } from "node:crypto";
import fs from "node:fs";
import type { Readable } from "node:stream";

/** The SHA-256 (hex) and size of a file on disk, read once. */
export async function checksumOfFile(filePath: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of fs.createReadStream(filePath) as AsyncIterable<Buffer>) {
    size += chunk.length;
    hash.update(chunk);
  }
  return { sha256: hash.digest("hex"), size };
}

/**
 * Writes `source` to `target` (a new file: an existing one is an error), hashing the bytes as they
 * pass, so a copy costs one read. Not flushed file by file (`cp -r` does not either, and a backup
 * of many small variants would pay a disk flush each): a restore checks every checksum before use.
 */
export async function copyWithChecksum(source: Readable, target: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash("sha256");
  let size = 0;
  const handle = await fs.promises.open(target, "wx", 0o644);
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      size += chunk.length;
      hash.update(chunk);
      await handle.write(chunk);
    }
  } finally {
    await handle.close();
  }
  return { sha256: hash.digest("hex"), size };
}
