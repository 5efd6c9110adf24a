import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import busboy from "busboy";
import { AppError } from "@/src/errors/app-error";
import { IMAGE_TYPE_HEAD_BYTES } from "@/src/images/image-type-detector";
import { ownedTemporaryName } from "@/src/storage/temporary-files";
import { type ReceivedFile, removeReceivedFiles } from "./received-file";
import type { ReceiveLimits } from "./upload.service";


/**
 * Streams every file part of a multipart request to a temporary file, hashing as it goes. Refuses
 * a request without a boundary or without a file (400), an empty file (400), and a file over the
 * limit as soon as it passes it (413). On any failure every temporary file is removed.
 */
export async function receiveMultipartFiles(request: Request, options: ReceiveLimits): Promise<ReceivedFile[]> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data;.*boundary=/i.test(contentType) || !request.body) {
    throw new AppError("BAD_REQUEST", "Send the photos as multipart/form-data with a boundary.");
  }
  const declaredLength = Number(request.headers.get("content-length") ?? "0");
  if (declaredLength > options.maxFileBytes * options.maxFiles + 1024 * 1024) {
    throw new AppError("PAYLOAD_TOO_LARGE", `Each file may be at most ${options.maxFileBytes} bytes.`);
  }
  await fs.mkdir(options.tempDirectory, { recursive: true });

  const files: ReceivedFile[] = [];
  const writes: Array<Promise<void>> = [];
  const parser = busboy({
    headers: { "content-type": contentType },
    // Browsers and curl send file names as raw UTF-8; busboy would read them as Latin-1.
    defParamCharset: "utf8",
    limits: { fileSize: options.maxFileBytes, files: options.maxFiles, fields: 20, parts: options.maxFiles + 20 },
  });

  const parsed = new Promise<void>((resolve, reject) => {
    parser.on("file", (_field, stream, info) => {
      const tempPath = path.join(options.tempDirectory, ownedTemporaryName("upload"));
      const hash = createHash("sha256");
      const received: ReceivedFile = { tempPath, clientName: info.filename ?? "", size: 0, sha256: "", head: Buffer.alloc(0) };
      files.push(received);
      stream.on("data", (chunk: Buffer) => {
        hash.update(chunk);
        if (received.head.length < IMAGE_TYPE_HEAD_BYTES) received.head = Buffer.concat([received.head, chunk]).subarray(0, IMAGE_TYPE_HEAD_BYTES);
        received.size += chunk.length;
      });
      stream.on("limit", () => {
        reject(new AppError("PAYLOAD_TOO_LARGE", `Each file may be at most ${options.maxFileBytes} bytes.`));
        stream.resume();
      });
      const write = pipeline(stream, createWriteStream(tempPath, { flags: "wx" })).then(() => {
        received.sha256 = hash.digest("hex");
      });
      // A failed write (disk full) ends the whole request at once rather than when the body ends.
      write.catch(reject);
      writes.push(write);
    });
    parser.on("filesLimit", () => reject(new AppError("PAYLOAD_TOO_LARGE", `Send at most ${options.maxFiles} files at once.`)));
    parser.on("error", (error) => reject(new AppError("BAD_REQUEST", `The multipart body is not valid: ${(error as Error).message}`)));
    parser.on("close", resolve);
  });

  try {
    await Promise.all([pipeline(Readable.fromWeb(request.body as WebReadableStream), parser), parsed]);
    await Promise.all(writes);
    if (files.length === 0) throw new AppError("BAD_REQUEST", "The request has no file part.");
    const empty = files.find((file) => file.size === 0);
    if (empty) throw new AppError("BAD_REQUEST", `The file ${JSON.stringify(empty.clientName.slice(0, 100))} is empty.`);
    return files;
  } catch (error) {
    await Promise.allSettled(writes);
    await removeReceivedFiles(files);
    // A full disk (ENOSPC) becomes 507 in the shared error answer, like every other write's.
    throw error;
  }
}
