import "server-only";
import { constants, type Dir } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { AppError } from "@/src/errors/app-error";
import {
  assertValidStorageKey,
  assertValidStoragePrefix,
  type ByteRange,
  type PutFileOptions,
  type PutOptions,
  resolveByteRange,
  type Storage,
  type StoredObjectInfo,
  type StoredObjectStream,
} from "./storage";
import { causedBy, errorCode } from "./storage-errors";
import { ownedTemporaryName, removeAbandonedTemporaryFiles } from "./temporary-files";

/** Under the root; a key starts with a letter or digit, so no key can name it. */
const TEMPORARY_DIRECTORY_NAME = ".tmp";
const READ_CHUNK_BYTES = 1024 * 1024;

/**
 * Objects as plain files under one root directory, `<root>/<key>`. Writes land in `<root>/.tmp`
 * (same filesystem, so the final rename is atomic), are fsync'ed, renamed into place, and the
 * directory is fsync'ed: after a crash an object is either whole or absent. The root must be one
 * filesystem: a mount point below it would make the rename fail.
 */
export class LocalDiskStorage implements Storage {
  readonly kind = "local";
  readonly root: string;
  private readonly temporaryDirectory: string;
  private realRootPromise: Promise<string> | undefined;

  constructor(directory: string) {
    this.root = path.resolve(directory);
    this.temporaryDirectory = path.join(this.root, TEMPORARY_DIRECTORY_NAME);
  }

  async prepare(): Promise<void> {
    try {
      await fs.mkdir(this.temporaryDirectory, { recursive: true });
      await removeAbandonedTemporaryFiles(this.temporaryDirectory);
    } catch (error) {
      throw toLocalStorageError(error, `prepare the storage directory ${this.root}`);
    }
  }

  async putFile(key: string, sourcePath: string, options: PutFileOptions): Promise<void> {
    const targetPath = this.pathOf(key);
    if (options.mayMoveSource && (await this.moveIntoPlace(key, sourcePath, targetPath))) return;
    // Opened before streaming, so a missing source is an error here rather than an unhandled
    // stream error later.
    const source = (await fs.open(sourcePath, "r")).createReadStream({ highWaterMark: READ_CHUNK_BYTES });
    try {
      await writeFileAtomically(targetPath, source, this.temporaryDirectory);
    } catch (error) {
      throw toLocalStorageError(error, `store ${key}`);
    } finally {
      // Closes the source file when the write failed before reading it to the end.
      source.destroy();
    }
  }

  /**
   * Moves a file the caller is done with into place: fsync'ed where it is, then renamed like a
   * copy's temporary file would be. An upload's 15 MB original is then written once, not twice.
   * Answers false when the file is on another filesystem (the caller copies it instead).
   */
  private async moveIntoPlace(key: string, sourcePath: string, targetPath: string): Promise<boolean> {
    try {
      const source = await fs.open(sourcePath, constants.O_RDONLY | constants.O_NOFOLLOW);
      try {
        await source.sync();
      } finally {
        await source.close();
      }
      await renameIntoPlace(sourcePath, targetPath);
      return true;
    } catch (error) {
      if (errorCode(error) === "EXDEV") return false;
      throw toLocalStorageError(error, `store ${key}`);
    }
  }

  async putBytes(key: string, bytes: Uint8Array, _options: PutOptions): Promise<void> {
    const targetPath = this.pathOf(key);
    try {
      await writeFileAtomically(targetPath, [bytes], this.temporaryDirectory);
    } catch (error) {
      throw toLocalStorageError(error, `store ${key}`);
    }
  }

  async read(key: string, range?: ByteRange): Promise<StoredObjectStream> {
    const filePath = await this.existingPathOf(key);
    if (!filePath) throw new AppError("NOT_FOUND", "This object does not exist");
    let handle: fs.FileHandle;
    try {
      // O_NOFOLLOW: the path was just resolved, so a symbolic link here was swapped in since.
      handle = await fs.open(filePath, constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch (error) {
      if (isMissing(error)) throw new AppError("NOT_FOUND", "This object does not exist");
      throw toLocalStorageError(error, `read ${key}`);
    }
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) throw new AppError("NOT_FOUND", "This object does not exist");
      const size = stats.size;
      const resolved = range ? resolveByteRange(range, size) : null;
      // The stream reads the open file, so a concurrent replace or delete cannot mix two versions.
      const body = resolved
        ? handle.createReadStream({ start: resolved.start, end: resolved.end, highWaterMark: READ_CHUNK_BYTES })
        : handle.createReadStream({ highWaterMark: READ_CHUNK_BYTES });
      const contentLength = resolved ? resolved.end - resolved.start + 1 : size;
      return { body, size, contentLength, range: resolved };
    } catch (error) {
      await handle.close();
      if (error instanceof AppError || error instanceof RangeError) throw error;
      throw toLocalStorageError(error, `read ${key}`);
    }
  }

  async stat(key: string): Promise<{ size: number; modifiedAt: Date } | null> {
    const filePath = await this.existingPathOf(key);
    if (!filePath) return null;
    try {
      const stats = await fs.stat(filePath);
      return stats.isFile() ? { size: stats.size, modifiedAt: stats.mtime } : null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw toLocalStorageError(error, `look up ${key}`);
    }
  }

  async delete(key: string): Promise<void> {
    const filePath = this.pathOf(key);
    try {
      await fs.unlink(filePath);
    } catch (error) {
      // EISDIR: the key names a directory of other keys, so there is no object to remove.
      if (isMissing(error) || errorCode(error) === "EISDIR") return;
      throw toLocalStorageError(error, `delete ${key}`);
    }
  }

  async *list(prefix: string): AsyncIterable<StoredObjectInfo> {
    assertValidStoragePrefix(prefix);
    // Start at the deepest directory the prefix names in full, then filter by the whole prefix.
    const startKey = prefix.includes("/") ? prefix.slice(0, prefix.lastIndexOf("/")) : "";
    try {
      yield* walkDirectory(this.root, startKey, prefix);
    } catch (error) {
      throw toLocalStorageError(error, `list ${prefix || "all objects"}`);
    }
  }

  async check(): Promise<void> {
    try {
      const stats = await fs.stat(this.root);
      if (!stats.isDirectory()) {
        throw new AppError("SERVICE_UNAVAILABLE", `Storage is unavailable: ${this.root} is not a directory`);
      }
      await fs.access(this.root, constants.R_OK | constants.W_OK);
      await fs.access(this.temporaryDirectory, constants.R_OK | constants.W_OK);
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw causedBy(
        new AppError("SERVICE_UNAVAILABLE", `Storage is unavailable: cannot use ${this.root} (${errorCode(error) ?? "unknown error"})`),
        error,
      );
    }
  }

  /** `<root>/<key>`, after checking the key and that the result stays under the root. */
  private pathOf(key: string): string {
    assertValidStorageKey(key);
    const filePath = path.resolve(this.root, key);
    if (!isInside(this.root, filePath)) throw new Error(`Storage key ${JSON.stringify(key)} resolves outside the storage root`);
    return filePath;
  }

  /**
   * The key's file with every symbolic link resolved, or null when it does not exist. Refuses a
   * file whose real location is outside the real root, so a link planted under the root cannot
   * serve `/etc/passwd`.
   */
  async localPathOf(key: string): Promise<string | null> {
    assertValidStorageKey(key);
    return this.existingPathOf(key);
  }

  private async existingPathOf(key: string): Promise<string | null> {
    const filePath = this.pathOf(key);
    let realPath: string;
    try {
      realPath = await fs.realpath(filePath);
    } catch (error) {
      if (isMissing(error)) return null;
      throw toLocalStorageError(error, `look up ${key}`);
    }
    this.realRootPromise ??= fs.realpath(this.root);
    const realRoot = await this.realRootPromise.catch((error: unknown) => {
      this.realRootPromise = undefined;
      throw toLocalStorageError(error, `look up ${key}`);
    });
    if (!isInside(realRoot, realPath)) throw new Error(`Storage key ${JSON.stringify(key)} resolves outside the storage root`);
    return realPath;
  }
}

/**
 * Writes `source` to `targetPath` all-or-nothing: into a new file in `temporaryDirectory` (which
 * must be on the target's filesystem), fsync'ed, renamed over the target, then the directory
 * fsync'ed so the rename itself survives a power cut. On any failure, including the source
 * failing midway, the temporary file is removed and the target is untouched.
 */
export async function writeFileAtomically(
  targetPath: string,
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  temporaryDirectory: string,
): Promise<void> {
  const temporaryPath = path.join(temporaryDirectory, ownedTemporaryName("tmp"));
  try {
    await fs.mkdir(temporaryDirectory, { recursive: true });
    const handle = await fs.open(temporaryPath, "wx", 0o644);
    let isWritten = false;
    try {
      for await (const chunk of source) await writeFully(handle, chunk);
      await handle.sync();
      isWritten = true;
    } finally {
      // A close error after a write error must not hide the write error (ENOSPC is what matters).
      await handle.close().catch((error: unknown) => {
        if (isWritten) throw error;
      });
    }
    await renameIntoPlace(temporaryPath, targetPath);
  } catch (error) {
    // Nothing to remove once renamed; the name is unique, so nothing else can be there.
    await fs.rm(temporaryPath, { force: true });
    throw error;
  }
}

/**
 * Renames a written, fsync'ed file to `targetPath`, creating its directories, and fsyncs the
 * directories whose entries changed, so the file survives a crash under its new name.
 */
async function renameIntoPlace(sourcePath: string, targetPath: string): Promise<void> {
  const targetDirectory = path.dirname(targetPath);
  const firstCreatedDirectory = await fs.mkdir(targetDirectory, { recursive: true });
  await fs.rename(sourcePath, targetPath);
  await syncDirectory(targetDirectory);
  if (firstCreatedDirectory) {
    // New directories are entries in their parents, which need their own fsync.
    for (let directory = targetDirectory; directory !== path.dirname(firstCreatedDirectory); directory = path.dirname(directory)) {
      await syncDirectory(path.dirname(directory));
    }
  }
}

/** Turns an operating system error into the AppError the HTTP layer answers with; others pass through. */
export function toLocalStorageError(error: unknown, action: string): unknown {
  if (error instanceof AppError || error instanceof RangeError) return error;
  const code = errorCode(error);
  if (code === "ENOSPC") {
    return causedBy(
      new AppError("INSUFFICIENT_STORAGE", `The storage disk is full, so Contact Sheet could not ${action}. Free some space, then try again.`),
      error,
    );
  }
  if (code === "EDQUOT") {
    return causedBy(
      new AppError("INSUFFICIENT_STORAGE", `The storage disk quota is used up, so Contact Sheet could not ${action}. Raise the quota or free some space, then try again.`),
      error,
    );
  }
  if (code === "EROFS" || code === "EACCES" || code === "EPERM" || code === "EIO" || code === "ESTALE" || code === "ENODEV") {
    return causedBy(new AppError("SERVICE_UNAVAILABLE", `Storage is unavailable: could not ${action} (${code})`), error);
  }
  return error;
}

async function* walkDirectory(root: string, directoryKey: string, prefix: string): AsyncGenerator<StoredObjectInfo> {
  let directory: Dir;
  try {
    directory = await fs.opendir(directoryKey ? path.join(root, directoryKey) : root);
  } catch (error) {
    if (isMissing(error)) return;
    throw error;
  }
  for await (const entry of directory) {
    if (!directoryKey && entry.name === TEMPORARY_DIRECTORY_NAME) continue;
    const key = directoryKey ? `${directoryKey}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      // Descend only where keys matching the prefix can be.
      if (prefix.startsWith(`${key}/`) || `${key}/`.startsWith(prefix)) yield* walkDirectory(root, key, prefix);
    } else if (entry.isFile() && key.startsWith(prefix) && isValidKey(key)) {
      const size = await fs.lstat(path.join(root, key)).then(
        (stats) => stats.size,
        (error: unknown) => {
          if (isMissing(error)) return null; // deleted while we were listing
          throw error;
        },
      );
      if (size !== null) yield { key, size };
    }
  }
}

async function writeFully(handle: fs.FileHandle, chunk: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < chunk.byteLength) {
    const { bytesWritten } = await handle.write(chunk, offset, chunk.byteLength - offset);
    offset += bytesWritten;
  }
}

async function syncDirectory(directory: string): Promise<void> {
  const handle = await fs.open(directory, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function isInside(root: string, candidate: string): boolean {
  return candidate.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

function isValidKey(key: string): boolean {
  try {
    assertValidStorageKey(key);
    return true;
  } catch {
    return false;
  }
}

function isMissing(error: unknown): boolean {
  const code = errorCode(error);
  return code === "ENOENT" || code === "ENOTDIR";
}

