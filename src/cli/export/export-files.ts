// Writing an export's files safely: every file goes to `<name>.partial` first and is renamed into
// place only once whole, so a killed run never leaves a truncated original or sidecar under its
// real name, and a rerun can trust what it finds (after checking its SHA-256).
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";

export interface WrittenFile {
  path: string;
  size: number;
  sha256: string;
}

/** Files up to this size are read in one call: a read stream per small file cost more than hashing it (as in the import's hash-source). */
const READ_WHOLE_BYTES = 1024 * 1024;

/** The SHA-256 of a file on disk (streamed when large); null when there is none. */
export async function hashExisting(filePath: string): Promise<{ size: number; sha256: string } | null> {
  const stats = await fs.promises.stat(filePath).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
  if (!stats) return null;
  if (stats.size <= READ_WHOLE_BYTES) {
    const bytes = await fs.promises.readFile(filePath);
    return { size: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") };
  }
  const hash = createHash("sha256");
  let size = 0;
  try {
    await pipeline(fs.createReadStream(filePath, { highWaterMark: 1024 * 1024 }), async (chunks: AsyncIterable<Buffer>) => {
      for await (const chunk of chunks) {
        size += chunk.length;
        hash.update(chunk);
      }
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  return { size, sha256: hash.digest("hex") };
}

/** Streams `body` to `filePath` (through a .partial file), hashing on the way; never holds the file whole. */
export async function writeStream(root: string, relative: string, body: ReadableStream<Uint8Array>, onBytes?: (bytes: number) => void): Promise<WrittenFile> {
  const target = path.join(root, relative);
  const partial = `${target}.partial`;
  await fs.promises.mkdir(path.dirname(target), { recursive: true });
  const hash = createHash("sha256");
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      size += chunk.length;
      onBytes?.(chunk.length);
      callback(null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(body as NodeReadableStream<Uint8Array>), counter, fs.createWriteStream(partial));
  } catch (error) {
    await fs.promises.rm(partial, { force: true });
    throw error;
  }
  return { path: relative, size, sha256: hash.digest("hex") };
}

/** Moves a checked `.partial` into place (or removes it when it did not check out). */
export async function settlePartial(root: string, relative: string, keep: boolean): Promise<void> {
  const target = path.join(root, relative);
  if (keep) await fs.promises.rename(`${target}.partial`, target);
  else await fs.promises.rm(`${target}.partial`, { force: true });
}

/** A small file (a sidecar, albums.json, the manifest) written whole, then renamed into place. */
export async function writeSmallFile(root: string, relative: string, text: string): Promise<WrittenFile> {
  const target = path.join(root, relative);
  const bytes = Buffer.from(text, "utf8");
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  await fs.promises.mkdir(path.dirname(target), { recursive: true });
  const existing = await fs.promises.readFile(target).catch(() => null);
  // An unchanged sidecar is left as it is: its modification time then says when it last changed.
  if (existing && existing.equals(bytes)) return { path: relative, size: bytes.length, sha256 };
  await fs.promises.writeFile(`${target}.partial`, bytes);
  await fs.promises.rename(`${target}.partial`, target);
  return { path: relative, size: bytes.length, sha256 };
}

/**
 * Removes every `.partial` file under `root`: what an earlier run killed part way left (never a
 * whole file: those are renamed into place). Run before a run writes anything, so a rerun ends with a
 * folder holding only whole files. Answers how many it removed.
 */
export async function removeLeftoverPartials(root: string): Promise<number> {
  let removed = 0;
  const walk = async (folder: string): Promise<void> => {
    const entries = await fs.promises.readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && entry.name.endsWith(".partial")) {
        await fs.promises.rm(full, { force: true });
        removed += 1;
      }
    }
  };
  await walk(root);
  return removed;
}
