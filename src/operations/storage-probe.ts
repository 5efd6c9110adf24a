import type { Storage } from "@/src/storage/storage";

/**
 * Where readiness writes its probe objects. Nothing else stores anything under it, and orphan
 * sweeps never look here, so a probe object can neither collide with a photo's file nor be taken
 * for one; each probe removes its own object.
 */
export const PROBE_PREFIX = "health-probes/";

/**
 * Writes a small object, reads it back and compares, and deletes it, whatever happened in between
 * (the delete is tried even when the write or the read failed). Resolves only when all three
 * worked; the caller turns a throw into "unavailable" without its message.
 */
export async function probeStorage(storage: Storage): Promise<void> {
  const key = `${PROBE_PREFIX}${crypto.randomUUID()}`;
  const written = new TextEncoder().encode(`ready ${key}`);
  try {
    await storage.putBytes(key, written, { contentType: "text/plain" });
    const { body } = await storage.read(key);
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(Buffer.from(chunk as Uint8Array));
    if (!Buffer.concat(chunks).equals(Buffer.from(written))) throw new Error("The storage answered other bytes than were written.");
  } finally {
    await storage.delete(key);
  }
}
