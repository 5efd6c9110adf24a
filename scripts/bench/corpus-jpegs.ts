import fs from "node:fs";
import path from "node:path";

const CORPUS = path.resolve(import.meta.dirname, "../../../shared/corpus");

/** `count` distinct JPEGs in `folder`, copies of the corpus's camera JPEGs each with its own trailer (bench:import, bench:export). */
export function corpusDerivedJpegs(folder: string, count: number, label: string): void {
  const sources = fs
    .readdirSync(path.join(CORPUS, "exif-samples/jpg"))
    .filter((name) => name.endsWith(".jpg") && name !== "corrupted.jpg")
    .map((name) => path.join(CORPUS, "exif-samples/jpg", name));
  fs.mkdirSync(folder, { recursive: true });
  for (let index = 0; index < count; index += 1) {
    const source = sources[index % sources.length];
    // Bytes after the end-of-image marker are ignored by decoders; they make each file's hash its own.
    fs.writeFileSync(path.join(folder, `${label}-${index}-${path.basename(source)}`), Buffer.concat([fs.readFileSync(source), Buffer.from(`${label} ${index}`)]));
  }
}
