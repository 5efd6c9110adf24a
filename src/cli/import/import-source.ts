import type { Readable } from "node:stream";
import type { ZipFolder } from "./zip-folders";

/** One file the importer may send: on disk, or an entry inside a zip (read without unpacking). */
export interface ImportSource {
  /** The state file's key: the absolute path, or `<zip's absolute path>!/<entry name>`. */
  key: string;
  /** The file name sent to the server. */
  name: string;
  /** The folders above it, from the named folder (or zip) down: what `--albums folders` nests. */
  folders: string[];
  size: number;
  /** Milliseconds; a zip entry's own date. With size, what tells an unchanged file on a rerun. */
  mtimeMs: number;
  /** Its bytes, from the start. */
  open(): Promise<Readable>;
  /** For the upload: a file is read again by path (tus seeks when resuming), a zip entry is buffered. */
  filePath?: string;
  /** A zip entry's folder inside the run's zips, where its sidecars and its album's metadata.json are found. */
  zipFolder?: ZipFolder;
}

/** A path or entry that is not imported, and why. */
export interface SkippedSource {
  path: string;
  reason: string;
}
