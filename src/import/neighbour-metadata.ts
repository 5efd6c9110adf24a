import { contactSheetSidecarName, isContactSheetSidecarName, readContactSheetSidecar } from "./contact-sheet-sidecar";
import type { ImportMetadata } from "./import-metadata";
import { ImportReadError } from "./import-read-error";
import { matchTakeoutJson } from "./takeout-json-matcher";
import { readTakeoutPhotoJson } from "./takeout-json-reader";
import { isXmpSidecarName, xmpSidecarIndex } from "./xmp-sidecar-name";
import { readXmpSidecar } from "./xmp-sidecar-reader";

// The importer's one entry for "what do the files beside this photo say about it": plan a folder
// once from its names (which sidecar and which Takeout JSON belong to which media file), then read
// one media file's neighbours into a single ImportMetadata. Reading goes through a function the
// command gives, so a folder on disk and a zip's entries are read alike and nothing here touches
// the file system. Sources merge field by field, the XMP sidecar over Takeout's JSON (a sidecar is
// the photographer's own, as in Lightroom), and a Contact Sheet export's own JSON sidecar over both
// (it is what the XMP beside it was written from, with the fields XMP has no word for). A refused neighbour is an error for the command to
// print; the photo is still imported with what the others said.

export interface NeighbourSources {
  xmpSidecar: string | null;
  takeoutJson: string | null;
  contactSheetSidecar: string | null;
}

export interface FolderMetadataPlan {
  sourcesFor(mediaName: string): NeighbourSources;
  /** A Takeout album folder's metadata.json (read it with readTakeoutAlbumJson for the album's title). */
  albumMetadata: string | null;
  /** Whether a name is a sidecar or JSON, which the command reads but never uploads. */
  isMetadataFile(name: string): boolean;
}

export interface NeighbourMetadata {
  metadata: ImportMetadata;
  /** Neighbour names that were read, for the command's --json line and --dry-run plan. */
  readFrom: string[];
  warnings: string[];
  errors: ImportReadError[];
}

/** `folderNames`: every file name in one folder (or one folder of a zip). */
export function planFolderMetadata(folderNames: readonly string[]): FolderMetadataPlan {
  const sidecars = xmpSidecarIndex(folderNames);
  // An export's sidecars are named exactly after their photo; kept away from the Takeout matcher, whose prefix rule could take one.
  const exportSidecars = new Set(folderNames.filter(isContactSheetSidecarName));
  const takeout = matchTakeoutJson(folderNames.filter((name) => !exportSidecars.has(name)));
  return {
    sourcesFor: (mediaName) => ({
      xmpSidecar: sidecars.sidecarFor(mediaName),
      takeoutJson: takeout.jsonFor.get(mediaName) ?? null,
      contactSheetSidecar: exportSidecars.has(contactSheetSidecarName(mediaName)) ? contactSheetSidecarName(mediaName) : null,
    }),
    albumMetadata: takeout.albumMetadata,
    isMetadataFile: (name) => isXmpSidecarName(name) || name.toLowerCase().endsWith(".json"),
  };
}

export async function readNeighbourMetadata(
  mediaName: string,
  plan: FolderMetadataPlan,
  readNeighbour: (name: string) => Promise<Uint8Array>,
): Promise<NeighbourMetadata> {
  const { xmpSidecar, takeoutJson, contactSheetSidecar } = plan.sourcesFor(mediaName);
  const result: NeighbourMetadata = { metadata: {}, readFrom: [], warnings: [], errors: [] };
  const read = async <T>(name: string | null, reader: (bytes: Uint8Array, name: string) => { value: T; warnings: string[] }): Promise<T | null> => {
    if (name === null) return null;
    try {
      const { value, warnings } = reader(await readNeighbour(name), name);
      result.readFrom.push(name);
      result.warnings.push(...warnings);
      return value;
    } catch (error) {
      if (!(error instanceof ImportReadError)) throw error;
      result.errors.push(error);
      return null;
    }
  };
  const fromTakeout = await read(takeoutJson, readTakeoutPhotoJson);
  const fromXmp = await read(xmpSidecar, readXmpSidecar);
  const fromExport = await read(contactSheetSidecar, readContactSheetSidecar);
  result.metadata = { ...fromTakeout?.metadata, ...fromXmp, ...fromExport };
  return result;
}
