import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { S3Store, type Options as S3StoreOptions } from "@tus/s3-store";
import { AppError } from "@/src/errors/app-error";
import { getLogger } from "@/src/log/logger";
import { DEFAULT_S3_STORAGE_OPTIONS, toS3StorageError } from "@/src/storage/s3-storage";
import { causedBy, errorCode } from "@/src/storage/storage-errors";
import { ownedTemporaryName } from "@/src/storage/temporary-files";
import type { TusBackend } from "./tus-backend";

export interface TusS3Config {
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Where a finished upload is copied to be hashed and sniffed. */
  localDirectory: string;
  expirationMs: number;
  /** A request with no byte in either direction for this long fails (the media store's limit unless said; tests shorten it). */
  idleTimeoutMs?: number;
}

/** Where uploads in progress live in the media bucket, apart from originals and variants. */
export const TUS_S3_PREFIX = "tus-uploads/";

// S3's multipart minimum; tus chunks smaller than this are kept as an incomplete part until more come.
const PART_BYTES = 8 * 1024 * 1024;

/**
 * S3Store made to work with S3-compatible servers as strict as Swift, and to leave nothing behind:
 * - DeleteObjects gets the Content-MD5 header the S3 API requires (the SDK now sends a CRC32
 *   instead, which AWS accepts and Swift refuses with 400);
 * - `remove` works on finished uploads too (S3Store's gives up when the multipart upload is already
 *   complete) and also deletes the incomplete part a dropped chunk leaves (`<id>.part`).
 */
class CompatibleS3Store extends S3Store {
  constructor(options: S3StoreOptions) {
    super(options);
    this.client.middlewareStack.add(
      (next, context) => async (args) => {
        const request = args.request as { headers?: Record<string, string>; body?: unknown };
        if (context.commandName === "DeleteObjectsCommand" && typeof request.body === "string" && request.headers) {
          request.headers["content-md5"] = createHash("md5").update(request.body).digest("base64");
        }
        return next(args);
      },
      { step: "build", name: "contentMd5ForDeleteObjects" },
    );
  }

  /**
   * The upload's metadata from its `.info` object, or null when there is none. S3Store's own
   * getUpload answers every failure as "not found"; here only a missing object is.
   */
  async findUploadMetadata(id: string): Promise<Record<string, string | null> | null> {
    try {
      return (await this.getMetadata(id)).file.metadata ?? {};
    } catch (error) {
      const name = error instanceof Error ? error.name : undefined;
      // NoSuchKey from a GET; a SyntaxError when the object holds no info S3Store wrote.
      if (name === "NoSuchKey" || name === "SyntaxError") return null;
      const reason = errorCode(error) ?? name ?? "unknown error";
      throw causedBy(new AppError("SERVICE_UNAVAILABLE", `Object storage is unavailable: cannot read the upload ${id} (${reason})`), error);
    }
  }

  override async remove(id: string): Promise<void> {
    const uploadId = await this.getMetadata(id).then((metadata) => metadata["upload-id"], () => undefined);
    if (uploadId) {
      // Fails when the multipart upload was completed or has gone already; the objects still go below.
      await this.client.abortMultipartUpload({ Bucket: this.bucket, Key: id, UploadId: uploadId }).catch(() => undefined);
    }
    for (const key of [id, this.infoKey(id), this.partKey(id, true)]) await this.client.deleteObject({ Bucket: this.bucket, Key: key });
    await this.clearCache(id);
  }
}

/**
 * Uploads in the media bucket under `TUS_S3_PREFIX` while they arrive, so any app instance behind a
 * load balancer can take the next chunk. Expiry is by creation date (S3Store's own): an upload
 * still unfinished after `expirationMs` is refused (410) and its parts are removed by the sweep.
 */
export function createTusS3Backend(config: TusS3Config): TusBackend {
  const datastore = new CompatibleS3Store({
    partSize: PART_BYTES,
    // Object tags are not supported by every S3-compatible server (Swift's s3api has none).
    useTags: false,
    expirationPeriodInMilliseconds: config.expirationMs,
    s3ClientConfig: {
      endpoint: config.endpoint,
      region: config.region,
      bucket: config.bucket,
      credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
      forcePathStyle: true,
      // As in src/storage/s3-storage.ts: aws-chunked bodies are refused by several S3-compatible servers.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      // The SDK waits forever by default: a store that takes the connection and never answers
      // (or drops off the network mid-request) left the PATCH waiting with the upload's lock,
      // which it keeps renewing, so that upload could never be resumed. A connection must be up
      // in a few seconds and a transfer may not sit idle longer than the media store's limit; no
      // bound on the whole request, since an 8 MiB part to a slow store may rightly take long.
      requestHandler: {
        connectionTimeout: DEFAULT_S3_STORAGE_OPTIONS.connectionTimeoutMs,
        socketTimeout: config.idleTimeoutMs ?? DEFAULT_S3_STORAGE_OPTIONS.idleTimeoutMs,
      },
    },
  });
  return {
    datastore,
    keyPrefix: TUS_S3_PREFIX,
    async openFinishedUpload(upload) {
      await fs.mkdir(config.localDirectory, { recursive: true });
      const filePath = path.join(config.localDirectory, ownedTemporaryName("upload"));
      const release = () => fs.rm(filePath, { force: true });
      try {
        await pipeline(await datastore.read(upload.id), createWriteStream(filePath, { flags: "wx" }));
      } catch (error) {
        await release();
        throw error;
      }
      return { filePath, release };
    },
    findUploadMetadata: (id) => datastore.findUploadMetadata(id),
    toStoreError: (error) => {
      // The multipart upload behind it is gone (aborted after a refused part, e.g. while the disk
      // was full, or expired): a 404 makes tus clients start the file again, where a 500 left them
      // retrying a dead upload (bench:load's "disk full" row).
      if (error instanceof Error && error.name === "NoSuchUpload") {
        return causedBy(new AppError("NOT_FOUND", "This upload is gone from the store; start the file again."), error);
      }
      return toS3StorageError(error, "work on an upload", config.bucket, DEFAULT_S3_STORAGE_OPTIONS);
    },
    async removeUpload(id) {
      await datastore.remove(id).catch((error: unknown) => getLogger().warn({ err: error, id }, "removing a tus upload from S3 failed"));
    },
    async removeAbandonedUploads() {
      return datastore.deleteExpired();
    },
  };
}
