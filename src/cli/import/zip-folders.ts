// The folders inside the zips of one run, merged by their path inside the zip: Google Takeout
// splits one export into several zips (takeout-001.zip, takeout-002.zip, …) and cuts them by size,
// not by folder, so a photo and its JSON, or an album's photos and its metadata.json, may lie in
// different zips. Every zip's entries register here under their folder ("Takeout/Google
// Photos/Trip to Rome"), and the neighbour reader plans and reads a folder from all of them at once.
import type { Readable } from "node:stream";
import { SIDECAR_MAX_BYTES } from "@/src/import/sidecar-text";

export interface ZipFolderEntry {
  /** Where it is, as reports show it: `<zip>!/<name in the zip>`. */
  shown: string;
  open(): Promise<Readable>;
}

export interface ZipFolder {
  /** The folder's path inside its zips, "" for the top. */
  path: string;
  /** Every file name in this folder, from every zip of the run (the first zip's entry wins a clash). */
  entries: Map<string, ZipFolderEntry>;
}

export class ZipFolderIndex {
  private readonly folders = new Map<string, ZipFolder>();

  /** The folder at this path inside the zips, made on first use. */
  folder(folderPath: string): ZipFolder {
    let folder = this.folders.get(folderPath);
    if (!folder) {
      folder = { path: folderPath, entries: new Map() };
      this.folders.set(folderPath, folder);
    }
    return folder;
  }

  add(folderPath: string, name: string, entry: ZipFolderEntry): ZipFolder {
    const folder = this.folder(folderPath);
    if (!folder.entries.has(name)) folder.entries.set(name, entry);
    return folder;
  }
}

/**
 * A sidecar's bytes from its zip, read only up to one byte past the readers' limit: the reader then
 * refuses it by name ("larger than 10 MB"), and a lying or hostile entry is never inflated whole.
 */
export async function readZipSidecar(entry: ZipFolderEntry): Promise<Uint8Array> {
  const stream = await entry.open();
  const chunks: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      bytes += chunk.length;
      if (bytes > SIDECAR_MAX_BYTES) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, SIDECAR_MAX_BYTES + 1);
}
