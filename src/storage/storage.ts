import type { Readable } from "node:stream";

/**
 * Where photo originals and variants live: a directory on local disk or an S3-compatible bucket.
 * Every backend implements this one interface and passes the same contract tests
 * (tests/storage.test.ts), so services never know which one they talk to.
 *
 * Keys are opaque relative paths the app makes up itself (see {@link assertValidStorageKey}); a key
 * that does not follow the rules is a bug and is refused with {@link InvalidStorageKeyError}.
 *
 * Failures are reported as `AppError`s with the codes the HTTP layer already knows:
 * `NOT_FOUND` (404) for a missing object, `INSUFFICIENT_STORAGE` (507) when the disk or quota is
 * full, `SERVICE_UNAVAILABLE` (503) when the store cannot be reached, answers with an error of its
 * own, refuses our credentials, or is too slow. Writes are all-or-nothing: a failed write never
 * leaves a partial object behind, so retrying is always safe.
 */
export interface Storage {
  /** Which backend this is, for logs and the admin dashboard. */
  readonly kind: "local" | "s3";

  /**
   * Makes the store ready: creates the directory or the bucket when missing and clears temporary
   * files an interrupted process left behind. Idempotent; call once when the server starts.
   */
  prepare(): Promise<void>;

  /**
   * Stores the file at `sourcePath` (already on local disk, e.g. an upload's temporary file) under
   * `key`, replacing any object with that key. The file is streamed, never read whole into memory,
   * and is left in place (unless `mayMoveSource`): the caller removes it. The object appears whole
   * or not at all.
   */
  putFile(key: string, sourcePath: string, options: PutFileOptions): Promise<void>;

  /** Stores `bytes` under `key` (small objects, such as a generated variant), whole or not at all. */
  putBytes(key: string, bytes: Uint8Array, options: PutOptions): Promise<void>;

  /**
   * Opens the object for reading, whole or only `range` (inclusive byte offsets, as in HTTP's
   * `Range: bytes=start-end`; an `end` past the last byte is clamped to it). Throws
   * `AppError("NOT_FOUND")` when there is no such object and a `RangeError` when `start` lies
   * beyond the object's last byte (the caller answers 416). The caller must consume or destroy
   * `body`.
   */
  read(key: string, range?: ByteRange): Promise<StoredObjectStream>;

  /** The object's size and when it was last written, or null when there is no such object. */
  stat(key: string): Promise<{ size: number; modifiedAt: Date } | null>;

  /**
   * Where the object can be read as a file on this machine, for backends that keep files (local
   * disk); null for one that does not (S3) or when there is no such object. Readers must not write.
   */
  localPathOf(key: string): Promise<string | null>;

  /** Removes the object. Removing a missing object succeeds, so a retried delete is harmless. */
  delete(key: string): Promise<void>;

  /**
   * Every stored object whose key starts with `prefix` (`""` for all), in no particular order.
   * Meant for collecting orphans: objects no database row refers to.
   */
  list(prefix: string): AsyncIterable<StoredObjectInfo>;

  /** Health check: resolves when the store can be used, throws `AppError("SERVICE_UNAVAILABLE")` otherwise. */
  check(): Promise<void>;
}

export interface PutOptions {
  /** MIME type, kept as object metadata where the backend has any (S3); local disk ignores it. */
  contentType: string;
}

export interface PutFileOptions extends PutOptions {
  /**
   * The caller is done with the source file, so the backend may move it into place instead of
   * copying it (local disk, same filesystem). The caller still removes `sourcePath`, which may then
   * be gone.
   */
  mayMoveSource?: boolean;
}

/** Inclusive byte offsets, like an HTTP range: `{ start: 0, end: 0 }` is the first byte. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface StoredObjectStream {
  /** The requested bytes. */
  body: Readable;
  /** The whole object's size in bytes (for `Content-Range: bytes start-end/size`). */
  size: number;
  /** How many bytes `body` yields: `size`, or the length of the (clamped) range. */
  contentLength: number;
  /** The byte range `body` covers, after clamping, or null when it is the whole object. */
  range: ByteRange | null;
}

export interface StoredObjectInfo {
  key: string;
  size: number;
  /** The object's ETag as S3 lists it (quotes removed), for a backup's manifest; local disk has none. */
  etag?: string;
}

/** Everything createStorage needs; built from the environment by src/config/env.ts. */
export type StorageConfig =
  | { kind: "local"; directory: string }
  | { kind: "s3"; endpoint: string; region: string; bucket: string; accessKeyId: string; secretAccessKey: string };

/** A key that breaks the rules of {@link assertValidStorageKey}: always a bug in the caller. */
export class InvalidStorageKeyError extends Error {
  override name = "InvalidStorageKeyError";
}

export const MAX_STORAGE_KEY_LENGTH = 512;

const KEY_PATTERN = /^[a-z0-9][a-z0-9/._-]*$/;

/**
 * Refuses anything but a plain relative key: lower-case letters, digits and `/._-`, starting with a
 * letter or digit, at most 512 characters, no empty, `.` or `..` segment and no trailing slash.
 * That leaves nothing a path or URL could interpret (`%`, `\`, NUL, a leading `/`, `..`).
 */
export function assertValidStorageKey(key: string): void {
  if (!isWellFormed(key, { allowTrailingSlash: false })) {
    throw new InvalidStorageKeyError(`Invalid storage key: ${describe(key)}`);
  }
}

/** A `list` prefix: empty, or the start of a valid key (it may end with `/`). */
export function assertValidStoragePrefix(prefix: string): void {
  if (prefix !== "" && !isWellFormed(prefix, { allowTrailingSlash: true })) {
    throw new InvalidStorageKeyError(`Invalid storage prefix: ${describe(prefix)}`);
  }
}

/**
 * Checks `range` against an object of `size` bytes and clamps its end to the last byte.
 * Throws a RangeError for offsets that are not whole numbers, an end before the start, or a start
 * past the end of the object (HTTP's 416).
 */
export function resolveByteRange(range: ByteRange, size: number): ByteRange {
  assertValidByteRange(range);
  if (range.start >= size) {
    throw new RangeError(`Range start ${range.start} is beyond the object's ${size} bytes`);
  }
  return { start: range.start, end: Math.min(range.end, size - 1) };
}

/** The shape check of {@link resolveByteRange}, for backends that learn the size only later. */
export function assertValidByteRange(range: ByteRange): void {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new RangeError(`Invalid byte range ${JSON.stringify(range)}`);
  }
}

function isWellFormed(value: unknown, { allowTrailingSlash }: { allowTrailingSlash: boolean }): boolean {
  if (typeof value !== "string" || value.length > MAX_STORAGE_KEY_LENGTH || !KEY_PATTERN.test(value)) return false;
  const segments = value.split("/");
  if (allowTrailingSlash && segments.length > 1 && segments.at(-1) === "") segments.pop();
  return segments.every((segment) => segment !== "" && segment !== "." && segment !== "..");
}

function describe(value: unknown): string {
  if (typeof value !== "string") return typeof value;
  return value.length > 80 ? `${JSON.stringify(value.slice(0, 80))}… (${value.length} characters)` : JSON.stringify(value);
}
