// A sidecar or Takeout file the importer refuses to read (hostile XML, too large, not text in a
// known encoding, not JSON). It names the file, because the command prints it to someone looking
// at thousands of files; the run goes on with the rest and uploads the photo without it.

export class ImportReadError extends Error {
  constructor(
    readonly fileName: string,
    reason: string,
  ) {
    super(`${fileName}: ${reason}`);
    this.name = "ImportReadError";
  }
}

/** What a reader learned, and what it left out and why (the command prints warnings, goes on). */
export interface ImportReadResult<T> {
  value: T;
  warnings: string[];
}
