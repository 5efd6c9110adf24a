import "server-only";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import {
  AbortMultipartUploadCommand,
  type BucketLocationConstraint,
  CompleteMultipartUploadCommand,
  type CompletedPart,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { AppError } from "@/src/errors/app-error";
import {
  assertValidByteRange,
  assertValidStorageKey,
  assertValidStoragePrefix,
  type ByteRange,
  type PutFileOptions,
  type PutOptions,
  type Storage,
  type StorageConfig,
  type StoredObjectInfo,
  type StoredObjectStream,
} from "./storage";
import { causedBy, errorCode } from "./storage-errors";

export type S3StorageConfig = Extract<StorageConfig, { kind: "s3" }>;

/** Limits that decide how soon a dead or slow store becomes a 503, and how uploads are cut up. */
export interface S3StorageOptions {
  /** The TCP connection must be up within this. */
  connectionTimeoutMs: number;
  /**
   * A request must have its response headers within this. Uploads get more: this plus their size
   * at {@link minimumUploadBytesPerSecond}.
   */
  requestTimeoutMs: number;
  /**
   * A transfer with no byte in either direction for this long is ended. Generous, because a
   * download paused by a slow reader is idle too.
   */
  idleTimeoutMs: number;
  /** The slowest upload accepted before it counts as stalled. */
  minimumUploadBytesPerSecond: number;
  /** Files larger than this are uploaded in parts (S3 allows at most 5 GB in one PUT). */
  multipartThresholdBytes: number;
  /** Part size of a multipart upload; S3 wants at least 5 MiB for every part but the last. */
  partSizeBytes: number;
}

const MEBIBYTE = 1024 * 1024;

export const DEFAULT_S3_STORAGE_OPTIONS: S3StorageOptions = {
  connectionTimeoutMs: 3_000,
  requestTimeoutMs: 5_000,
  idleTimeoutMs: 30_000,
  minimumUploadBytesPerSecond: 256 * 1024,
  multipartThresholdBytes: 64 * MEBIBYTE,
  partSizeBytes: 16 * MEBIBYTE,
};

/** One retry for failures that a second try often fixes (a reset connection, a 5xx); never for a timeout. */
const MAX_ATTEMPTS = 2;
const RETRY_DELAY_MS = 200;
const MAX_PARTS = 10_000;
const ignore = () => undefined;
const QUIET_LOGGER = { trace: ignore, debug: ignore, info: ignore, warn: ignore, error: ignore };

const NETWORK_ERROR_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * Objects in one bucket of an S3-compatible store (AWS S3, MinIO, Ceph, OpenStack Swift's s3api).
 * Every request has a connection timeout and a time limit, and the SDK's own retries are off in
 * favour of one retry here, so an unreachable or stalled store turns into a 503 within seconds
 * instead of a hanging request.
 */
export class S3Storage implements Storage {
  readonly kind = "s3";
  /** The underlying client, for maintenance tasks and tests (bucket clean-up, fault injection). */
  readonly client: S3Client;
  readonly bucket: string;
  private readonly options: S3StorageOptions;
  private readonly region: string;

  constructor(config: S3StorageConfig, options: Partial<S3StorageOptions> = {}) {
    this.options = { ...DEFAULT_S3_STORAGE_OPTIONS, ...options };
    this.bucket = config.bucket;
    this.region = config.region;
    this.client = new S3Client({
      endpoint: config.endpoint,
      region: config.region,
      credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
      // Bucket in the path, not the host name: works with any endpoint, no wildcard DNS needed.
      forcePathStyle: true,
      // Checksums "when supported" send streamed bodies aws-chunked, which Swift and other
      // S3-compatible servers answer with 501.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      maxAttempts: 1,
      // The SDK would print a warning of its own for some failures that this class throws to the
      // caller anyway, with a clearer message; the caller logs those.
      logger: QUIET_LOGGER,
      requestHandler: {
        connectionTimeout: this.options.connectionTimeoutMs,
        requestTimeout: this.options.requestTimeoutMs,
        throwOnRequestTimeout: true,
        socketTimeout: this.options.idleTimeoutMs,
      },
    });
  }

  async prepare(): Promise<void> {
    await this.ensureBucket();
  }

  /** Creates the bucket when it does not exist; one that exists already (even by a race) is fine. */
  async ensureBucket(): Promise<void> {
    try {
      await this.withRetry(`open bucket ${this.bucket}`, () => this.client.send(new HeadBucketCommand({ Bucket: this.bucket })));
      return;
    } catch (error) {
      if (httpStatusOf(error) !== 404) throw error;
    }
    try {
      await this.withRetry(`create bucket ${this.bucket}`, () =>
        this.client.send(
          new CreateBucketCommand({
            Bucket: this.bucket,
            // us-east-1 is the default location and AWS refuses it spelled out.
            // The SDK lists AWS's regions only; S3-compatible stores name theirs freely.
            ...(this.region === "us-east-1" ? {} : { CreateBucketConfiguration: { LocationConstraint: this.region as BucketLocationConstraint } }),
          }),
        ),
      );
    } catch (error) {
      const name = errorName(error);
      if (name !== "BucketAlreadyOwnedByYou" && name !== "BucketAlreadyExists") throw error;
    }
    // A bucket that "already exists" may belong to someone else: make sure we can use it.
    await this.check();
  }

  async putFile(key: string, sourcePath: string, options: PutFileOptions): Promise<void> {
    assertValidStorageKey(key);
    const { size } = await fs.stat(sourcePath);
    if (size > this.options.multipartThresholdBytes) {
      await this.putFileInParts(key, sourcePath, size, options);
      return;
    }
    await this.withRetry(`store ${key}`, () =>
      this.sendFileRange(sourcePath, 0, size, (body, requestOptions) =>
        this.client.send(
          new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentLength: size, ContentType: options.contentType }),
          requestOptions,
        ),
      ),
    );
  }

  async putBytes(key: string, bytes: Uint8Array, options: PutOptions): Promise<void> {
    assertValidStorageKey(key);
    await this.withRetry(`store ${key}`, () =>
      this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: bytes, ContentLength: bytes.byteLength, ContentType: options.contentType }),
        { requestTimeout: this.uploadTimeoutMs(bytes.byteLength) },
      ),
    );
  }

  async read(key: string, range?: ByteRange): Promise<StoredObjectStream> {
    assertValidStorageKey(key);
    if (range) assertValidByteRange(range);
    let output;
    try {
      output = await this.withRetry(`read ${key}`, () =>
        this.client.send(
          new GetObjectCommand({ Bucket: this.bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
        ),
      );
    } catch (error) {
      if (isMissingObject(error)) throw causedBy(new AppError("NOT_FOUND", "This object does not exist"), error);
      if (httpStatusOf(error) === 416 && range) {
        throw causedBy(new RangeError(`Range start ${range.start} is beyond the end of ${key}`), error);
      }
      throw error;
    }
    const body = output.Body;
    if (!(body instanceof Readable)) throw new Error(`Object storage sent no readable body for ${key}`);
    const contentLength = output.ContentLength ?? 0;
    if (!range) return { body, size: contentLength, contentLength, range: null };
    const contentRange = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(output.ContentRange ?? "");
    if (!contentRange) {
      body.destroy();
      throw new Error(`Object storage ignored the byte range asked for ${key}`);
    }
    return {
      body,
      size: Number(contentRange[3]),
      contentLength,
      range: { start: Number(contentRange[1]), end: Number(contentRange[2]) },
    };
  }

  async stat(key: string): Promise<{ size: number; modifiedAt: Date } | null> {
    assertValidStorageKey(key);
    try {
      const output = await this.withRetry(`look up ${key}`, () => this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key })));
      return { size: output.ContentLength ?? 0, modifiedAt: output.LastModified ?? new Date() };
    } catch (error) {
      if (isMissingObject(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidStorageKey(key);
    try {
      await this.withRetry(`delete ${key}`, () => this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key })));
    } catch (error) {
      // S3 answers 204 for a missing key; some compatible servers answer 404.
      if (!isMissingObject(error)) throw error;
    }
  }

  async *list(prefix: string): AsyncIterable<StoredObjectInfo> {
    assertValidStoragePrefix(prefix);
    let continuationToken: string | undefined;
    do {
      const token = continuationToken;
      const page = await this.withRetry(`list ${prefix || "all objects"}`, () =>
        this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token })),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key !== undefined) yield { key: object.Key, size: object.Size ?? 0, ...(object.ETag ? { etag: object.ETag.replaceAll('"', "") } : {}) };
      }
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuationToken);
  }

  async localPathOf(): Promise<null> {
    return null;
  }

  async check(): Promise<void> {
    try {
      await this.withRetry(`open bucket ${this.bucket}`, () => this.client.send(new HeadBucketCommand({ Bucket: this.bucket })));
    } catch (error) {
      if (httpStatusOf(error) === 404) {
        throw causedBy(new AppError("SERVICE_UNAVAILABLE", `Object storage is unavailable: the bucket "${this.bucket}" does not exist`), error);
      }
      throw error;
    }
  }

  private async putFileInParts(key: string, sourcePath: string, size: number, options: PutOptions): Promise<void> {
    const partSize = Math.max(this.options.partSizeBytes, Math.ceil(size / MAX_PARTS));
    const created = await this.withRetry(`store ${key}`, () =>
      this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: options.contentType })),
    );
    const uploadId = created.UploadId;
    if (!uploadId) throw new Error(`Object storage started a multipart upload of ${key} without an upload id`);
    try {
      const parts: CompletedPart[] = [];
      for (let partNumber = 1, start = 0; start < size; partNumber += 1, start += partSize) {
        const length = Math.min(partSize, size - start);
        const part = await this.withRetry(`store part ${partNumber} of ${key}`, () =>
          this.sendFileRange(sourcePath, start, length, (body, requestOptions) =>
            this.client.send(
              new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumber: partNumber, Body: body, ContentLength: length }),
              requestOptions,
            ),
          ),
        );
        parts.push({ PartNumber: partNumber, ETag: part.ETag });
      }
      await this.withRetry(`store ${key}`, () =>
        this.client.send(
          new CompleteMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }),
          // Assembling the parts can take the server a while for a large object.
          { requestTimeout: this.uploadTimeoutMs(size) },
        ),
      );
    } catch (error) {
      // Parts of an unfinished upload are invisible but billed: remove them.
      try {
        await this.withRetry(`abort the upload of ${key}`, () =>
          this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId })),
        );
      } catch (abortError) {
        throw describeFailedAbort(error, abortError, key);
      }
      throw error;
    }
  }

  /**
   * Sends `length` bytes of the file from `start` as a request body, streamed from disk with a
   * known length, through `send`. A read error of the file aborts the request at once (instead of
   * leaving the server waiting for bytes that never come) and is the error the caller sees.
   */
  private async sendFileRange<T>(
    sourcePath: string,
    start: number,
    length: number,
    send: (body: Readable | Uint8Array, requestOptions: { abortSignal: AbortSignal; requestTimeout: number }) => Promise<T>,
  ): Promise<T> {
    const requestOptions = { abortSignal: new AbortController().signal, requestTimeout: this.uploadTimeoutMs(length) };
    // An empty range cannot be a file stream ({ end: -1 } means "to the end").
    if (length === 0) return send(new Uint8Array(0), requestOptions);
    const abortController = new AbortController();
    const body = createReadStream(sourcePath, { start, end: start + length - 1, highWaterMark: MEBIBYTE });
    let readError: unknown;
    body.once("error", (error) => {
      readError = error;
      abortController.abort();
    });
    try {
      return await send(body, { ...requestOptions, abortSignal: abortController.signal });
    } catch (error) {
      throw readError ?? error;
    } finally {
      body.destroy();
    }
  }

  private uploadTimeoutMs(bytes: number): number {
    return this.options.requestTimeoutMs + Math.ceil((bytes / this.options.minimumUploadBytesPerSecond) * 1000);
  }

  /** Runs `attempt`, once more after a failure worth retrying, and turns store failures into AppErrors. */
  private async withRetry<T>(action: string, attempt: () => Promise<T>): Promise<T> {
    for (let attemptNumber = 1; ; attemptNumber += 1) {
      try {
        return await attempt();
      } catch (error) {
        if (attemptNumber < MAX_ATTEMPTS && isWorthRetrying(error)) {
          await sleep(RETRY_DELAY_MS);
          continue;
        }
        throw toS3StorageError(error, action, this.bucket, this.options);
      }
    }
  }
}

/**
 * The AppError for a failure of the store itself (unreachable, too slow, 5xx, credentials or
 * bucket refused): 503 with a message that says which. Anything else (a missing object, a bad
 * range, a bug) passes through unchanged.
 */
export function toS3StorageError(error: unknown, action: string, bucket: string, options: S3StorageOptions): unknown {
  if (error instanceof AppError || error instanceof RangeError) return error;
  const name = errorName(error);
  const code = errorCode(error);
  const status = httpStatusOf(error);
  const unavailable = (reason: string) => causedBy(new AppError("SERVICE_UNAVAILABLE", `Object storage is unavailable: ${reason}`), error);
  if (name === "TimeoutError" || code === "ETIMEDOUT") {
    return unavailable(
      `it did not answer in time (connect ${options.connectionTimeoutMs} ms, answer ${options.requestTimeoutMs} ms) when trying to ${action}`,
    );
  }
  if (code !== undefined && NETWORK_ERROR_CODES.has(code)) return unavailable(`it cannot be reached (${code}) when trying to ${action}`);
  if (name === "NoSuchBucket") return unavailable(`the bucket "${bucket}" does not exist`);
  if (status === 401 || status === 403) {
    return unavailable(
      `it refused our credentials or access to bucket "${bucket}" (HTTP ${status}${name && name !== "Unknown" ? ` ${name}` : ""}); check the access key and secret`,
    );
  }
  if (status === 429 || (status !== undefined && status >= 500)) return unavailable(`it answered HTTP ${status} when trying to ${action}`);
  return error;
}

function isWorthRetrying(error: unknown): boolean {
  const code = errorCode(error);
  const status = httpStatusOf(error);
  if (errorName(error) === "TimeoutError" || code === "ETIMEDOUT") return false;
  return (code !== undefined && NETWORK_ERROR_CODES.has(code)) || status === 429 || (status !== undefined && status >= 500);
}

function isMissingObject(error: unknown): boolean {
  return httpStatusOf(error) === 404 && errorName(error) !== "NoSuchBucket";
}

function describeFailedAbort(error: unknown, abortError: unknown, key: string): unknown {
  if (!(error instanceof AppError)) return error;
  const detail = abortError instanceof Error ? abortError.message : String(abortError);
  return causedBy(
    new AppError(
      error.code,
      `${error.message}. Cancelling the partial upload of ${key} failed too (${detail}); its parts stay in the bucket until a lifecycle rule for incomplete multipart uploads removes them`,
      error.headers,
    ),
    error,
  );
}

function httpStatusOf(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null || !("$metadata" in error)) return undefined;
  const metadata = error.$metadata;
  if (typeof metadata !== "object" || metadata === null || !("httpStatusCode" in metadata)) return undefined;
  return typeof metadata.httpStatusCode === "number" ? metadata.httpStatusCode : undefined;
}

function errorName(error: unknown): string | undefined {
  return error instanceof Error ? error.name : undefined;
}

