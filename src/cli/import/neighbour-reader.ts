// What the files beside an imported photo say about it (its XMP sidecar, its Google Takeout JSON,
// its Takeout album's metadata.json), read through src/import's readers: each folder is planned
// once from its file names, then each photo's neighbours are read when its upload is done. A folder
// is a folder on disk or a folder inside the run's zips (all of them at once: Takeout's JSON may
// lie in another zip than its photo). A neighbour the readers refuse (hostile XML, not JSON) is
// reported, naming the file; the photo keeps what the others said.
import fs from "node:fs";
import path from "node:path";
import type { ImportMetadata } from "@/src/import/import-metadata";
import { ImportReadError } from "@/src/import/import-read-error";
import { type FolderMetadataPlan, planFolderMetadata, readNeighbourMetadata } from "@/src/import/neighbour-metadata";
import { readTakeoutAlbumJson } from "@/src/import/takeout-json-reader";
import type { ImportSource } from "./import-source";
import { readZipSidecar, type ZipFolder } from "./zip-folders";

/** Whether a file is a sidecar or Takeout JSON: read with its photo, never uploaded or counted as skipped. */
export function isNeighbourMetadataName(name: string): boolean {
  return /\.(xmp|json)$/i.test(name);
}

export interface NeighbourReader {
  /** What the source's sidecars and Takeout JSON say about it. */
  readMetadata(source: ImportSource): Promise<ImportMetadata>;
  /** The title in the metadata.json of the source's folder (a Takeout album's), or null. */
  albumTitle(source: ImportSource): Promise<string | null>;
}

/** One folder, on disk or in the zips: its names, how to read one, and how to show one in a report. */
interface NeighbourFolder {
  plan: Promise<FolderMetadataPlan>;
  /** Its metadata.json's title, read once for all its photos. */
  albumTitle?: Promise<string | null>;
  read(name: string): Promise<Uint8Array>;
  shown(name: string): string;
}

export function createNeighbourReader(report: (problem: string) => void): NeighbourReader {
  const diskFolders = new Map<string, NeighbourFolder>();
  const zipFolders = new Map<ZipFolder, NeighbourFolder>();

  function folderOf(source: ImportSource): NeighbourFolder | null {
    if (source.filePath) {
      const folder = path.dirname(source.filePath);
      let found = diskFolders.get(folder);
      if (!found) {
        found = {
          plan: fs.promises.readdir(folder).then(planFolderMetadata),
          read: (name) => fs.promises.readFile(path.join(folder, name)),
          shown: (name) => path.join(folder, name),
        };
        diskFolders.set(folder, found);
      }
      return found;
    }
    const zipFolder = source.zipFolder;
    if (!zipFolder) return null;
    let found = zipFolders.get(zipFolder);
    if (!found) {
      const entryOf = (name: string) => {
        const entry = zipFolder.entries.get(name);
        if (!entry) throw new Error(`${name} is not in the zips' folder ${zipFolder.path}`);
        return entry;
      };
      found = {
        // Planned when first asked, after every zip of the run has been listed into the folder.
        plan: Promise.resolve().then(() => planFolderMetadata([...zipFolder.entries.keys()])),
        read: (name) => readZipSidecar(entryOf(name)),
        shown: (name) => entryOf(name).shown,
      };
      zipFolders.set(zipFolder, found);
    }
    return found;
  }

  async function readAlbumTitle(folder: NeighbourFolder): Promise<string | null> {
    const name = (await folder.plan).albumMetadata;
    if (!name) return null;
    try {
      return readTakeoutAlbumJson(await folder.read(name), name).value.title ?? null;
    } catch (error) {
      if (!(error instanceof ImportReadError)) throw error;
      report(`${folder.shown(name)}: ${error.message.slice(name.length + 2)}`);
      return null;
    }
  }

  return {
    async readMetadata(source) {
      const folder = folderOf(source);
      if (!folder) return {};
      const found = await readNeighbourMetadata(source.name, await folder.plan, folder.read);
      for (const warning of found.warnings) report(`${source.key}: ${warning}`);
      for (const error of found.errors) report(`${folder.shown(error.fileName)}: ${error.message.slice(error.fileName.length + 2)}`);
      return found.metadata;
    },
    albumTitle(source) {
      const folder = folderOf(source);
      if (!folder) return Promise.resolve(null);
      folder.albumTitle ??= readAlbumTitle(folder);
      return folder.albumTitle;
    },
  };
}
