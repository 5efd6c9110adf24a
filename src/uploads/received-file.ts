import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import { IMAGE_TYPE_HEAD_BYTES } from "@/src/images/image-type-detector";

/** A file that has arrived on local disk (by multipart or tus), hashed, with its first bytes. */
export interface ReceivedFile {
  tempPath: string;
  /** The name the client gave; never used for storage, only shown (after sanitising). */
  clientName: string;
  size: number;
  sha256: string;
  /** The first bytes, for deciding the type by content. */
  head: Buffer;
}

/**
 * Describes a file that is already complete on local disk (a finished tus upload): reads it once,
 * hashing it and keeping its first bytes, so it can be judged and stored like a multipart file.
 */
export async function readReceivedFile(filePath: string, clientName: string): Promise<ReceivedFile> {
  const hash = createHash("sha256");
  let head = Buffer.alloc(0);
  let size = 0;
  for await (const chunk of createReadStream(filePath, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    if (head.length < IMAGE_TYPE_HEAD_BYTES) head = Buffer.concat([head, chunk.subarray(0, IMAGE_TYPE_HEAD_BYTES - head.length)]);
    size += chunk.length;
  }
  return { tempPath: filePath, clientName, size, sha256: hash.digest("hex"), head };
}

/** Removes the temporary files a request received. */
export async function removeReceivedFiles(files: ReceivedFile[]): Promise<void> {
  await Promise.all(files.map((file) => fs.rm(file.tempPath, { force: true })));
}
