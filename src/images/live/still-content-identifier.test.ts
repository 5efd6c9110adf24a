import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CORPUS_DIR } from "../image-test-helpers";
import { endExifTool } from "../raw/raw-exiftool";
import { readStillContentIdentifier } from "./still-content-identifier";

afterAll(async () => {
  await endExifTool();
});

describe("readStillContentIdentifier", () => {
  it("reads the identifier from a real iPhone Live Photo's maker notes", async () => {
    const file = path.join(CORPUS_DIR, "exif-samples/heic/IMG_5195.HEIC");
    expect(await readStillContentIdentifier(file, "heic")).toBe("570F1469-09C7-4E50-9875-05F21D5BD166");
  });

  it("answers null for an iPhone still that is no Live Photo, another camera's photo, and a type that cannot be one", async () => {
    expect(await readStillContentIdentifier(path.join(CORPUS_DIR, "exif-samples/heic/mobile/iphone_13_pro_max.HEIC"), "heic")).toBeNull();
    expect(await readStillContentIdentifier(path.join(CORPUS_DIR, "exif-samples/jpg/Canon_40D.jpg"), "jpeg")).toBeNull();
    expect(await readStillContentIdentifier(path.join(CORPUS_DIR, "exif-samples/heic/IMG_5195.HEIC"), "png")).toBeNull();
  });
});
