// What the importer remembers between runs, so a rerun over an unchanged tree only stats files: per
// site and user, each file's size and modification time, the SHA-256 they gave, the photo it became,
// and the tus URL of an upload that did not finish (so the next run resumes it). One JSON file,
// written whole to a temporary name and renamed, so a crash leaves the old state or the new one.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface RememberedFile {
  size: number;
  mtimeMs: number;
  sha256: string;
  photoId?: string;
}

interface StateFileContent {
  version: 1;
  /** By `<site origin> <user id>`: a photo id means something only on one site, for one user. */
  accounts: Record<string, { files: Record<string, RememberedFile>; uploads: Record<string, { url: string; size: number; createdAt: string }> }>;
}

/** `$XDG_CONFIG_HOME/contact-sheet/import-state.json`, else `~/.config/...` (what `--state` replaces). */
export function defaultStatePath(environment: NodeJS.ProcessEnv = process.env): string {
  const configHome = environment.XDG_CONFIG_HOME || path.join(os.homedir(), ".config");
  return path.join(configHome, "contact-sheet", "import-state.json");
}

/** The state file cannot be used; told in one sentence, and the file is left as it is. */
export class ImportStateError extends Error {
  override name = "ImportStateError";
}

export class ImportState {
  private readonly content: StateFileContent;
  private dirty = false;

  private constructor(
    readonly filePath: string,
    content: StateFileContent,
    private readonly account: string,
  ) {
    this.content = content;
    content.accounts[account] ??= { files: {}, uploads: {} };
  }

  /** Reads the state file (a missing one is an empty state; an unreadable one is an error to show, never overwritten silently). */
  static load(filePath: string, siteOrigin: string, userId: string): ImportState {
    let content: StateFileContent = { version: 1, accounts: {} };
    if (fs.existsSync(filePath)) {
      let parsed: Partial<StateFileContent>;
      try {
        parsed = JSON.parse(fs.readFileSync(filePath, "utf8")) as Partial<StateFileContent>;
      } catch (error) {
        throw new ImportStateError(`the state file ${filePath} cannot be read (${error instanceof Error ? error.message : String(error)}); move it away or give another with --state`);
      }
      if (parsed.version !== 1 || typeof parsed.accounts !== "object" || parsed.accounts === null) {
        throw new ImportStateError(`${filePath} is not an import state file this version knows; move it away or give another with --state`);
      }
      content = parsed as StateFileContent;
    }
    return new ImportState(filePath, content, `${siteOrigin} ${userId}`);
  }

  private get files() {
    return this.content.accounts[this.account].files;
  }

  private get uploads() {
    return this.content.accounts[this.account].uploads;
  }

  /** The remembered hash when the file's size and modification time are what they were. */
  unchangedHash(key: string, size: number, mtimeMs: number): string | undefined {
    const remembered = this.files[key];
    return remembered && remembered.size === size && remembered.mtimeMs === mtimeMs ? remembered.sha256 : undefined;
  }

  /** Remembers a file; what is already remembered as it is leaves the state unwritten (a rerun writes nothing). */
  remember(key: string, file: RememberedFile): void {
    const known = this.files[key];
    if (known && known.size === file.size && known.mtimeMs === file.mtimeMs && known.sha256 === file.sha256 && known.photoId === file.photoId) return;
    this.files[key] = file;
    this.dirty = true;
  }

  /** tus's URL storage, by fingerprint. */
  unfinishedUpload(fingerprint: string): { url: string; size: number; createdAt: string } | undefined {
    return this.uploads[fingerprint];
  }

  rememberUpload(fingerprint: string, upload: { url: string; size: number; createdAt: string }): void {
    this.uploads[fingerprint] = upload;
    this.dirty = true;
  }

  forgetUpload(fingerprint: string): void {
    if (!(fingerprint in this.uploads)) return;
    delete this.uploads[fingerprint];
    this.dirty = true;
  }

  /** Writes the state if it changed: whole, to a temporary file renamed over the old one. */
  save(): void {
    if (!this.dirty) return;
    fs.mkdirSync(path.dirname(this.filePath), { recursive: true, mode: 0o700 });
    const temporary = `${this.filePath}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, JSON.stringify(this.content), { mode: 0o600 });
    fs.renameSync(temporary, this.filePath);
    this.dirty = false;
  }
}
