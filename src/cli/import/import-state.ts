// What the importer remembers between runs, so a rerun over an unchanged tree only stats files: per
// site and user, each file's size and modification time, the SHA-256 they gave, the photo it became,
// and the tus URL of an upload that did not finish (so the next run resumes it). Written whole to a
// temporary name and renamed, so a crash leaves the old state or the new one.
//
// One JSON line per file (version 2), read and written a line at a time: a library's state holds
// 100,000 files and more, and the first version's single JSON document cost the command its whole
// text as a string on every load and save besides the entries themselves (measured: +72 MB to load
// and +58 MB to save 100,000 entries, over a baseline of ~80 MB). Only this account's entries are
// parsed; other accounts' lines are carried over as they were. A version 1 file is still read, and
// written back as version 2 by the run.
//
// Loading is what a rerun waits for, so this account's remembered files are read from the file's
// bytes without JSON.parse when a line is in the exact form `save` writes (anything else, an
// escaped path too, goes through JSON.parse): the path is decoded into a string of its own, the
// hash and a UUID photo id straight into their slot's bytes, and no string of the whole line is
// made. Measured loading 100,000 files (29 MB) in tsx with --max-semi-space-size=2, load average
// ~2: 207-225 ms, peak RSS 99-108 MiB, heap after 17 MiB; line strings and JSON.parse took 450-570
// ms, 138-149 MiB, 28 MiB; the first version's single document 210-320 ms, 147-158 MiB, 43 MiB.
import { isUtf8 } from "node:buffer";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface RememberedFile {
  size: number;
  mtimeMs: number;
  sha256: string;
  photoId?: string;
}

interface UnfinishedUpload {
  url: string;
  size: number;
  createdAt: string;
}

/** The first version: one JSON document, by `<site origin> <user id>`. */
interface VersionOneContent {
  version: 1;
  accounts: Record<string, { files?: Record<string, RememberedFile>; uploads?: Record<string, UnfinishedUpload> }>;
}

/** A line of version 2 after its header line: one remembered file, or one unfinished upload, of one account. */
type StateLine = { account: string; file: string } & RememberedFile | { account: string; upload: string } & UnfinishedUpload;

const HEADER = JSON.stringify({ version: 2 });
/** Lines are read and written in chunks of this many bytes. */
const CHUNK_BYTES = 1024 * 1024;

/** `$XDG_CONFIG_HOME/contact-sheet/import-state.json`, else `~/.config/...` (what `--state` replaces). */
export function defaultStatePath(environment: NodeJS.ProcessEnv = process.env): string {
  const configHome = environment.XDG_CONFIG_HOME || path.join(os.homedir(), ".config");
  return path.join(configHome, "contact-sheet", "import-state.json");
}

/** The state file cannot be used; told in one sentence, and the file is left as it is. */
export class ImportStateError extends Error {
  override name = "ImportStateError";
}

/**
 * The remembered files of one account, packed: a file's path names a slot of 64 bytes (size and
 * modification time as doubles, the SHA-256's 32 bytes, the photo id's 16 when it is a UUID, as
 * the site's ids are) in one growing buffer. 100,000 files take ~6 MB there and their paths in the
 * map, against ~45 MB as objects of strings.
 */
class RememberedFiles {
  private static readonly SLOT = 64;
  private readonly slots = new Map<string, number>();
  private bytes = Buffer.alloc(RememberedFiles.SLOT * 1024);
  /** Photo ids that are not UUIDs (never from this site, but a state file is only trusted so far), by slot. */
  private readonly otherPhotoIds = new Map<number, string>();
  private readonly withoutPhotoId = new Set<number>();

  get(key: string): RememberedFile | undefined {
    const slot = this.slots.get(key);
    if (slot === undefined) return undefined;
    const at = slot * RememberedFiles.SLOT;
    const photoId = this.withoutPhotoId.has(slot) ? undefined : (this.otherPhotoIds.get(slot) ?? formatUuid(this.bytes.subarray(at + 48, at + 64)));
    return {
      size: this.bytes.readDoubleLE(at),
      mtimeMs: this.bytes.readDoubleLE(at + 8),
      sha256: this.bytes.toString("hex", at + 16, at + 48),
      ...(photoId !== undefined && { photoId }),
    };
  }

  /** False, and nothing kept, when the hash is not a SHA-256 in hex (the file is then hashed again). */
  set(key: string, file: RememberedFile): boolean {
    if (!SHA256_HEX.test(file.sha256)) return false;
    HASH_SCRATCH.write(file.sha256, 0, 32, "hex");
    const { photoId } = file;
    const isUuid = photoId !== undefined && UUID.test(photoId);
    if (isUuid) ID_SCRATCH.write(photoId.replaceAll("-", ""), 0, 16, "hex");
    return this.setFields(key, file.size, file.mtimeMs, HASH_SCRATCH, isUuid ? ID_SCRATCH : photoId);
  }

  /**
   * `set` with the hash's 32 bytes, and the photo id's 16 when it is a UUID (else as it is), which a
   * line read without JSON.parse decodes straight from the file's bytes.
   */
  setFields(key: string, size: number, mtimeMs: number, hash: Uint8Array, photoId: Uint8Array | string | undefined): boolean {
    if (!Number.isFinite(size) || !Number.isFinite(mtimeMs)) return false;
    let slot = this.slots.get(key);
    if (slot === undefined) {
      slot = this.slots.size;
      if ((slot + 1) * RememberedFiles.SLOT > this.bytes.length) {
        const grown = Buffer.alloc(this.bytes.length * 2);
        this.bytes.copy(grown);
        this.bytes = grown;
      }
      this.slots.set(key, slot);
    } else {
      this.otherPhotoIds.delete(slot);
      this.withoutPhotoId.delete(slot);
    }
    const at = slot * RememberedFiles.SLOT;
    this.bytes.writeDoubleLE(size, at);
    this.bytes.writeDoubleLE(mtimeMs, at + 8);
    this.bytes.set(hash, at + 16);
    if (photoId === undefined) this.withoutPhotoId.add(slot);
    else if (typeof photoId === "string") this.otherPhotoIds.set(slot, photoId);
    else this.bytes.set(photoId, at + 48);
    return true;
  }

  *entries(): Generator<[string, RememberedFile]> {
    for (const key of this.slots.keys()) yield [key, this.get(key)!];
  }
}

/** Where a hash and a photo id are decoded before they are copied into their slot. */
const HASH_SCRATCH = Buffer.alloc(32);
const ID_SCRATCH = Buffer.alloc(16);

/** Each byte's value as a lower-case hex digit, -1 for any other byte. */
const HEX_DIGIT = new Int8Array(256).fill(-1);
for (let digit = 0; digit < 16; digit += 1) HEX_DIGIT[digit.toString(16).charCodeAt(0)] = digit;

/** Decodes `digits` lower-case hex digits at `bytes[start…]` into `target[at…]`; false at the first byte that is not one. */
function decodeHex(bytes: Uint8Array, start: number, digits: number, target: Uint8Array, at: number): boolean {
  for (let index = 0; index < digits; index += 2) {
    const high = HEX_DIGIT[bytes[start + index]];
    const low = HEX_DIGIT[bytes[start + index + 1]];
    if (high < 0 || low < 0) return false;
    target[at + index / 2] = (high << 4) | low;
  }
  return true;
}

/** A UUID's five groups of digits, as offsets into its 36 characters and their lengths. */
const UUID_GROUPS = [[0, 8], [9, 4], [14, 4], [19, 4], [24, 12]] as const;

/** A UUID in the line's bytes, 8-4-4-4-12 lower-case hex digits, decoded into ID_SCRATCH; false when it is not one. */
function decodeUuid(bytes: Uint8Array, start: number, end: number): boolean {
  if (end - start !== 36) return false;
  let at = 0;
  for (const [offset, digits] of UUID_GROUPS) {
    if (offset > 0 && bytes[start + offset - 1] !== 0x2d) return false;
    if (!decodeHex(bytes, start + offset, digits, ID_SCRATCH, at)) return false;
    at += digits / 2;
  }
  return true;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function formatUuid(bytes: Buffer): string {
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export class ImportState {
  private readonly files = new RememberedFiles();
  private readonly uploads = new Map<string, UnfinishedUpload>();
  /** Other accounts' lines, kept as read. */
  private readonly otherLines: string[] = [];
  private dirty = false;

  /** How this account's lines begin (JSON.stringify writes `account` first), in UTF-8. */
  private readonly linePrefix: Buffer;
  /** How this account's remembered files' lines begin, up to the path's text. */
  private readonly fileLinePrefix: Buffer;
  private readonly fileLinePrefixBytes: number;

  private constructor(
    readonly filePath: string,
    private readonly account: string,
  ) {
    this.linePrefix = Buffer.from(`{"account":${JSON.stringify(account)},`);
    this.fileLinePrefix = Buffer.concat([this.linePrefix, Buffer.from('"file":"')]);
    this.fileLinePrefixBytes = this.fileLinePrefix.length;
  }

  /** Reads the state file (a missing one is an empty state; an unreadable one is an error to show, never overwritten silently). */
  static load(filePath: string, siteOrigin: string, userId: string): ImportState {
    const state = new ImportState(filePath, `${siteOrigin} ${userId}`);
    if (!fs.existsSync(filePath)) return state;
    const cannotRead = (reason: string) =>
      new ImportStateError(`the state file ${filePath} cannot be read (${reason}); move it away or give another with --state`);
    if (!startsWith(filePath, `${HEADER}\n`)) {
      // Version 1: one JSON document, read whole as before, once; the run writes it back as version 2.
      let text: string;
      try {
        text = fs.readFileSync(filePath, "utf8");
      } catch (error) {
        throw cannotRead(error instanceof Error ? error.message : String(error));
      }
      state.readVersionOne(text, filePath);
      return state;
    }
    let lineNumber = 0;
    try {
      forEachLine(filePath, (bytes, start, end) => {
        lineNumber += 1;
        if (lineNumber > 1 && end > start) state.readLine(bytes, start, end);
      });
    } catch (error) {
      throw cannotRead(`line ${lineNumber}: ${error instanceof Error ? error.message : String(error)}`);
    }
    return state;
  }

  private readVersionOne(text: string, filePath: string): void {
    let parsed: Partial<VersionOneContent>;
    try {
      parsed = JSON.parse(text) as Partial<VersionOneContent>;
    } catch (error) {
      throw new ImportStateError(`the state file ${filePath} cannot be read (${error instanceof Error ? error.message : String(error)}); move it away or give another with --state`);
    }
    if (parsed.version !== 1 || typeof parsed.accounts !== "object" || parsed.accounts === null) {
      throw new ImportStateError(`${filePath} is not an import state file this version knows; move it away or give another with --state`);
    }
    for (const [account, { files = {}, uploads = {} }] of Object.entries(parsed.accounts)) {
      for (const [file, remembered] of Object.entries(files)) this.keepLine({ account, file, ...remembered });
      for (const [upload, unfinished] of Object.entries(uploads)) this.keepLine({ account, upload, ...unfinished });
    }
    // Written back in this version's form by the run.
    this.dirty = true;
  }

  /** One line, `bytes[start, end)`: only this account's are decoded, and a remembered file's only field by field. */
  private readLine(bytes: Buffer, start: number, end: number): void {
    // Another account's line is kept whole; only the start is looked at to tell.
    if (!startsWithBytes(bytes, start, end, this.linePrefix)) {
      this.otherLines.push(bytes.toString("utf8", start, end));
      return;
    }
    if (!this.readFileLine(bytes, start, end)) this.keepLine(JSON.parse(bytes.toString("utf8", start, end)) as StateLine);
  }

  /**
   * A remembered file's line as `save` writes it, `{"account":…,"file":"…","size":…,"mtimeMs":…,
   * "sha256":"…"[,"photoId":"…"]}`, read by cutting its fields out of the bytes (the path decoded
   * into a string of its own, which the map keeps; a slice of the line's string would keep the
   * whole line alive). False for any other line (an upload's, a path or id with an escape in it, a
   * field out of place): JSON.parse reads those. A path's text has no `","size":` in it unless
   * escaped (then it has a backslash and is left to JSON.parse), so the first one ends the path.
   */
  private readFileLine(bytes: Buffer, start: number, end: number): boolean {
    if (!startsWithBytes(bytes, start, end, this.fileLinePrefix)) return false;
    const pathStart = start + this.fileLinePrefixBytes;
    const pathEnd = bytes.indexOf(SIZE_FIELD, pathStart);
    if (pathEnd < 0 || pathEnd >= end || hasByte(bytes, pathStart, pathEnd, BACKSLASH)) return false;
    const sizeStart = pathEnd + SIZE_FIELD.length;
    const sizeEnd = bytes.indexOf(MTIME_FIELD, sizeStart);
    const mtimeStart = sizeEnd + MTIME_FIELD.length;
    const mtimeEnd = bytes.indexOf(HASH_FIELD, mtimeStart);
    if (sizeEnd <= sizeStart || mtimeEnd <= mtimeStart || mtimeEnd >= end) return false;
    const hashStart = mtimeEnd + HASH_FIELD.length;
    const hashEnd = hashStart + 64;
    if (bytes[end - 2] !== QUOTE || bytes[end - 1] !== CLOSING_BRACE || hashEnd > end - 2) return false;
    let photoId: Uint8Array | string | undefined;
    if (hashEnd !== end - 2) {
      const idStart = hashEnd + PHOTO_ID_FIELD.length;
      if (idStart > end - 2 || bytes.compare(PHOTO_ID_FIELD, 0, PHOTO_ID_FIELD.length, hashEnd, idStart) !== 0) return false;
      if (decodeUuid(bytes, idStart, end - 2)) photoId = ID_SCRATCH;
      else if (hasByte(bytes, idStart, end - 2, BACKSLASH) || hasByte(bytes, idStart, end - 2, QUOTE)) return false;
      else photoId = bytes.toString("utf8", idStart, end - 2);
    }
    // A hash that is no SHA-256, or a size or time that is no number, keeps nothing: the file is hashed again.
    if (!decodeHex(bytes, hashStart, 64, HASH_SCRATCH, 0)) return true;
    this.files.setFields(
      bytes.toString("utf8", pathStart, pathEnd),
      Number(bytes.toString("latin1", sizeStart, sizeEnd)),
      Number(bytes.toString("latin1", mtimeStart, mtimeEnd)),
      HASH_SCRATCH,
      photoId,
    );
    return true;
  }

  private keepLine(line: StateLine): void {
    if (line.account !== this.account) {
      this.otherLines.push(JSON.stringify(line));
    } else if ("file" in line) {
      this.files.set(line.file, line);
    } else {
      this.uploads.set(line.upload, { url: line.url, size: line.size, createdAt: line.createdAt });
    }
  }

  /** The remembered hash when the file's size and modification time are what they were. */
  unchangedHash(key: string, size: number, mtimeMs: number): string | undefined {
    const remembered = this.files.get(key);
    return remembered && remembered.size === size && remembered.mtimeMs === mtimeMs ? remembered.sha256 : undefined;
  }

  /** Remembers a file; what is already remembered as it is leaves the state unwritten (a rerun writes nothing). */
  remember(key: string, file: RememberedFile): void {
    const known = this.files.get(key);
    if (known && known.size === file.size && known.mtimeMs === file.mtimeMs && known.sha256 === file.sha256 && known.photoId === file.photoId) return;
    if (this.files.set(key, file)) this.dirty = true;
  }

  /** tus's URL storage, by fingerprint. */
  unfinishedUpload(fingerprint: string): UnfinishedUpload | undefined {
    return this.uploads.get(fingerprint);
  }

  rememberUpload(fingerprint: string, upload: UnfinishedUpload): void {
    this.uploads.set(fingerprint, upload);
    this.dirty = true;
  }

  forgetUpload(fingerprint: string): void {
    if (!this.uploads.delete(fingerprint)) return;
    this.dirty = true;
  }

  /** Writes the state if it changed: whole, a line at a time, to a temporary file renamed over the old one. */
  save(): void {
    if (!this.dirty) return;
    fs.mkdirSync(path.dirname(this.filePath), { recursive: true, mode: 0o700 });
    const temporary = `${this.filePath}.${process.pid}.tmp`;
    const descriptor = fs.openSync(temporary, "w", 0o600);
    try {
      let chunk = `${HEADER}\n`;
      const write = (line: string) => {
        chunk += `${line}\n`;
        if (chunk.length < CHUNK_BYTES) return;
        fs.writeSync(descriptor, chunk);
        chunk = "";
      };
      const account = this.account;
      for (const [file, remembered] of this.files.entries()) write(JSON.stringify({ account, file, ...remembered }));
      for (const [upload, unfinished] of this.uploads) write(JSON.stringify({ account, upload, ...unfinished }));
      for (const line of this.otherLines) write(line);
      fs.writeSync(descriptor, chunk);
    } finally {
      fs.closeSync(descriptor);
    }
    fs.renameSync(temporary, this.filePath);
    this.dirty = false;
  }
}

function startsWith(filePath: string, text: string): boolean {
  const expected = Buffer.from(text);
  const descriptor = fs.openSync(filePath, "r");
  try {
    const head = Buffer.alloc(expected.length);
    return fs.readSync(descriptor, head, 0, head.length, 0) === head.length && head.equals(expected);
  } finally {
    fs.closeSync(descriptor);
  }
}

const LINE_FEED = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const CLOSING_BRACE = 0x7d;
const SIZE_FIELD = Buffer.from('","size":');
const MTIME_FIELD = Buffer.from(',"mtimeMs":');
const HASH_FIELD = Buffer.from(',"sha256":"');
const PHOTO_ID_FIELD = Buffer.from('","photoId":"');

function startsWithBytes(bytes: Buffer, start: number, end: number, prefix: Buffer): boolean {
  return end - start >= prefix.length && bytes.compare(prefix, 0, prefix.length, start, start + prefix.length) === 0;
}

/** A loop, not indexOf: that searches on to the end of the buffer when the byte is not in the line. */
function hasByte(bytes: Buffer, start: number, end: number, byte: number): boolean {
  for (let at = start; at < end; at += 1) if (bytes[at] === byte) return true;
  return false;
}

/**
 * Calls `onLine` with each line of the file (`bytes[start, end)`, without its line feed), reading a
 * chunk at a time: the chunk's whole lines are checked to be UTF-8 at once; the cut line at the end
 * moves to the front for the next read (the buffer doubles for a longer line). The bytes are the
 * reader's own buffer, valid only during the call.
 */
function forEachLine(filePath: string, onLine: (bytes: Buffer, start: number, end: number) => void): void {
  const descriptor = fs.openSync(filePath, "r");
  try {
    let buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    let kept = 0;
    for (;;) {
      if (kept === buffer.length) buffer = Buffer.concat([buffer, Buffer.allocUnsafe(buffer.length)]);
      const read = fs.readSync(descriptor, buffer, kept, buffer.length - kept, null);
      const end = kept + read;
      // At the end of the file, what is left is the last line, without its line feed.
      const wholeLinesEnd = read === 0 ? end : buffer.lastIndexOf(LINE_FEED, end - 1) + 1;
      if (!isUtf8(buffer.subarray(0, wholeLinesEnd))) throw new Error("the file is not UTF-8 text");
      let start = 0;
      for (let lineEnd = buffer.indexOf(LINE_FEED, 0); lineEnd >= 0 && lineEnd < wholeLinesEnd; lineEnd = buffer.indexOf(LINE_FEED, start)) {
        onLine(buffer, start, lineEnd);
        start = lineEnd + 1;
      }
      if (read === 0) {
        if (start < end) onLine(buffer, start, end);
        return;
      }
      buffer.copy(buffer, 0, start, end);
      kept = end - start;
    }
  } finally {
    fs.closeSync(descriptor);
  }
}
