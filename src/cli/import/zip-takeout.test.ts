// The generated Google Takeout (every JSON name form, tests/helpers/takeout-corpus.ts) split into two
// zips the way Takeout splits an export, by size and not by folder: every photo in one zip, every
// JSON (and the album's metadata.json) in the other. Read in place, each photo still finds its JSON
// and its album's title, and no sidecar is counted as a skipped file.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handMadeZip } from "../../../tests/helpers/hand-made-zip";
import { type TakeoutCorpus, writeTakeoutCorpus } from "../../../tests/helpers/takeout-corpus";
import { createNeighbourReader } from "./neighbour-reader";
import { walkSources, type WalkedSources } from "./walk-sources";

let work: string;
let corpus: TakeoutCorpus;
let walked: WalkedSources;
const problems: string[] = [];

function filesBelow(root: string, folder = ""): string[] {
  return fs.readdirSync(path.join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = folder ? `${folder}/${entry.name}` : entry.name;
    return entry.isDirectory() ? filesBelow(root, relative) : [relative];
  });
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "cs-zip-takeout-"));
  corpus = writeTakeoutCorpus(path.join(work, "tree"), { copyBytes: false });
  const files = filesBelow(corpus.root);
  const entry = (name: string) => ({ name, bytes: fs.readFileSync(path.join(corpus.root, name)), deflate: true });
  const isJson = (name: string) => name.endsWith(".json");
  fs.writeFileSync(path.join(work, "takeout-001.zip"), handMadeZip(files.filter((name) => !isJson(name)).map(entry)));
  // The second zip also carries a sidecar with a hostile name, which must be refused, not read.
  fs.writeFileSync(path.join(work, "takeout-002.zip"), handMadeZip([...files.filter(isJson).map(entry), { name: "../escape.json", bytes: Buffer.from("{}") }]));
  walked = await walkSources([path.join(work, "takeout-001.zip"), path.join(work, "takeout-002.zip")], { maxFileBytes: 1_000_000 });
});

afterAll(() => {
  walked.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe("a Google Takeout in several zips", () => {
  it("lists the photos only: the JSON is read with them, the ../ name is refused", () => {
    const expectedMedia = corpus.folders.flatMap((folder) => [...folder.expected.keys()]);
    expect(walked.sources.map((source) => source.name).sort()).toEqual(expectedMedia.sort());
    expect(walked.skipped.map((skipped) => [path.basename(skipped.path.split("!/")[0]), skipped.path.split("!/")[1], skipped.reason.split(":")[0]])).toEqual([
      ["takeout-002.zip", "../escape.json", "refused"],
    ]);
  });

  it("gives each photo what its JSON in the other zip says, by every name form Takeout writes", async () => {
    const reader = createNeighbourReader((problem) => problems.push(problem));
    for (const folder of corpus.folders) {
      for (const [media, json] of folder.expected) {
        const source = walked.sources.find((candidate) => candidate.key.endsWith(`!/${folder.path}/${media}`));
        expect(source, media).toBeDefined();
        const metadata = await reader.readMetadata(source!);
        expect([media, metadata.takenAt ?? null]).toEqual([media, json ? folder.takenAtByJson.get(json) : null]);
        expect(await reader.albumTitle(source!)).toBe(folder.albumTitle);
      }
    }
    expect(problems).toEqual([]);
  });
});
