// What the files beside an imported photo say about it (its XMP sidecar, its Google Takeout JSON),
// read through src/import's readers: each folder is planned once from its file names, then each
// photo's neighbours are read when its upload is done. A neighbour the readers refuse (hostile XML,
// not JSON) is reported, naming the file; the photo keeps what the others said.
import fs from "node:fs";
import path from "node:path";
import type { ImportMetadata } from "@/src/import/import-metadata";
import { type FolderMetadataPlan, planFolderMetadata, readNeighbourMetadata } from "@/src/import/neighbour-metadata";
import type { ImportSource } from "./import-source";

/** Whether a file is a sidecar or Takeout JSON: read with its photo, never uploaded or counted as skipped. */
export function isNeighbourMetadataName(name: string): boolean {
  return /\.(xmp|json)$/i.test(name);
}

export function createNeighbourReader(report: (problem: string) => void): (source: ImportSource) => Promise<ImportMetadata> {
  const plans = new Map<string, Promise<FolderMetadataPlan>>();
  const planOf = (folder: string) => {
    let plan = plans.get(folder);
    if (!plan) {
      plan = fs.promises.readdir(folder).then(planFolderMetadata);
      plans.set(folder, plan);
    }
    return plan;
  };
  return async (source) => {
    // A zip's entries are not read for neighbours yet: their photos get what the server reads from the file.
    if (!source.filePath) return {};
    const folder = path.dirname(source.filePath);
    const found = await readNeighbourMetadata(source.name, await planOf(folder), (name) => fs.promises.readFile(path.join(folder, name)));
    for (const warning of found.warnings) report(`${source.key}: ${warning}`);
    for (const error of found.errors) report(`${path.join(folder, error.fileName)}: ${error.message.slice(error.fileName.length + 2)}`);
    return found.metadata;
  };
}
