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
    if (!/^[0-9a-f]{64}$/.test(file.sha256) || !Number.isFinite(file.size) || !Number.isFinite(file.mtimeMs)) return false;
    let slot = this.slots.get(key);
    if (slot === undefined) {
      slot = this.slots.size;
      if ((slot + 1) * RememberedFiles.SLOT > this.bytes.length) {
        const grown = Buffer.alloc(this.bytes.length * 2);
        this.bytes.copy(grown);
        this.bytes = grown;
      }
      this.slots.set(key, slot);
    }
    const at = slot * RememberedFiles.SLOT;
    this.bytes.writeDoubleLE(file.size, at);
    this.bytes.writeDoubleLE(file.mtimeMs, at + 8);
    this.bytes.write(file.sha256, at + 16, 32, "hex");
    this.otherPhotoIds.delete(slot);
    this.withoutPhotoId.delete(slot);
    if (file.photoId === undefined) this.withoutPhotoId.add(slot);
    else if (UUID.test(file.photoId)) this.bytes.write(file.photoId.replaceAll("-", ""), at + 48, 16, "hex");
    else this.otherPhotoIds.set(slot, file.photoId);
    return true;
  }

  *entries(): Generator<[string, RememberedFile]> {
    for (const key of this.slots.keys()) yield [key, this.get(key)!];
  }
}

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

  /** How this account's lines begin (JSON.stringify writes `account` first). */
  private readonly linePrefix: string;

  private constructor(
    readonly filePath: string,
    private readonly account: string,
  ) {
    this.linePrefix = `{"account":${JSON.stringify(account)},`;
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
      forEachLine(filePath, (line) => {
        lineNumber += 1;
        if (lineNumber > 1 && line !== "") state.readLine(line);
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

  private readLine(line: string): void {
    // Another account's line is kept whole; only the start is looked at to tell.
    if (!line.startsWith(this.linePrefix)) {
      this.otherLines.push(line);
      return;
    }
    this.keepLine(JSON.parse(line) as StateLine);
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

/** Calls `onLine` with each line of the file (without its line feed), reading a chunk at a time. */
function forEachLine(filePath: string, onLine: (line: string) => void): void {
  const descriptor = fs.openSync(filePath, "r");
  try {
    const buffer = Buffer.alloc(CHUNK_BYTES);
    const decoder = new TextDecoder("utf-8", { fatal: true });
    let pending = "";
    for (;;) {
      const read = fs.readSync(descriptor, buffer, 0, buffer.length, null);
      pending += decoder.decode(buffer.subarray(0, read), { stream: read > 0 });
      let start = 0;
      for (let end = pending.indexOf("\n"); end >= 0; end = pending.indexOf("\n", start)) {
        onLine(pending.slice(start, end));
        start = end + 1;
      }
      pending = pending.slice(start);
      if (read === 0) break;
    }
    if (pending !== "") onLine(pending);
  } finally {
    fs.closeSync(descriptor);
  }
}
