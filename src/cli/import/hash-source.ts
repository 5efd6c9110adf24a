import { createHash } from "node:crypto";
import { pipeline } from "node:stream/promises";
import type { ImportSource } from "./import-source";

/** The SHA-256 of a source's bytes, lower-case hex, streamed (1 MiB reads; nothing held whole). */
export async function hashSource(source: ImportSource): Promise<string> {
  const hash = createHash("sha256");
  let bytes = 0;
  await pipeline(await source.open(), async (chunks: AsyncIterable<Buffer>) => {
    for await (const chunk of chunks) {
      bytes += chunk.length;
      hash.update(chunk);
    }
  });
  // A file that changed while it was read is hashed again on the next run, not sent half-known now.
  if (bytes !== source.size) throw new Error(`it changed while it was read (${bytes} bytes, ${source.size} expected)`);
  return hash.digest("hex");
}
