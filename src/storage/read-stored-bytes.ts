import type { Storage } from "./storage";

/** A stored object's whole content in memory: for variants and originals that are worked on as a whole. */
export async function readStoredBytes(storage: Storage, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of (await storage.read(key)).body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
