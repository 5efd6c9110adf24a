import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeTakeoutCorpus } from "../../tests/helpers/takeout-corpus";
import { matchTakeoutJson } from "./takeout-json-matcher";
import { readTakeoutAlbumJson, readTakeoutPhotoJson } from "./takeout-json-reader";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "takeout-corpus-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("matchTakeoutJson against a generated Takeout", () => {
  const corpus = writeTakeoutCorpus(root, { copyBytes: false });

  for (const folder of corpus.folders) {
    it(`matches every media file in "${folder.path}" to its JSON, and no other`, () => {
      const names = fs.readdirSync(path.join(root, folder.path));
      const match = matchTakeoutJson(names);
      const media = names.filter((name) => !name.endsWith(".json"));
      expect(new Set(media)).toEqual(new Set(folder.expected.keys()));
      for (const name of media) expect(match.jsonFor.get(name) ?? null, name).toBe(folder.expected.get(name));
      expect(match.albumMetadata).toBe(folder.albumTitle ? "metadata.json" : null);
      expect(new Set(match.unusedJson)).toEqual(new Set(folder.strayJson));
    });

    it(`reads each matched JSON of "${folder.path}" to the date it holds`, () => {
      const dir = path.join(root, folder.path);
      const match = matchTakeoutJson(fs.readdirSync(dir));
      for (const [media, json] of match.jsonFor) {
        const { value } = readTakeoutPhotoJson(new Uint8Array(fs.readFileSync(path.join(dir, json))), json);
        expect(value.metadata.takenAt, media).toBe(folder.takenAtByJson.get(json));
        expect(value.metadata.location).toBeUndefined(); // 0,0 is Google's "none"
      }
      if (match.albumMetadata) {
        expect(readTakeoutAlbumJson(new Uint8Array(fs.readFileSync(path.join(dir, match.albumMetadata))), match.albumMetadata).value.title).toBe(folder.albumTitle);
      }
    });
  }
});

describe("matchTakeoutJson on names reported from real Takeouts", () => {
  const cases: Array<[string, string]> = [
    // GooglePhotosTakeoutHelper #8: the old form cut at 46.
    ["Urlaub in Knaufspesch in der Schneifel (38).JPG", "Urlaub in Knaufspesch in der Schneifel (38).JP.json"],
    // immich-go #35: the media name cut at 47, its JSON at 46.
    ["PXL_20230809_203449253.LONG_EXPOSURE-02.ORIGINA.jpg", "PXL_20230809_203449253.LONG_EXPOSURE-02.ORIGIN.json"],
    ["05yqt21kruxwwlhhgrwrdyb6chhwszi9bqmzu16w0 2.jpg", "05yqt21kruxwwlhhgrwrdyb6chhwszi9bqmzu16w0 2.jp.json"],
    // pulsejet/memories #1559 and GooglePhotosTakeoutHelper #353: the new form cut at 51.
    ["Screenshot_2017-07-05-10-05-26.png", "Screenshot_2017-07-05-10-05-26.png.supplementa.json"],
    ["Screenshot_20241227_105539_Edge.jpg", "Screenshot_20241227_105539_Edge.jpg.supplement.json"],
    ["D7157814-D2D5-4A62-AFCE-9CF465CB7D66.jpeg", "D7157814-D2D5-4A62-AFCE-9CF465CB7D66.jpeg.supp.json"],
    ["PXL_20240817_202602411.mp4", "PXL_20240817_202602411.mp4.supplemental-metada.json"],
    // GooglePhotosTakeoutHelper PR #375: the index behind the cut suffix.
    ["IMG_20210704_094147(1).jpg", "IMG_20210704_094147.jpg.supplemental-metadata(1).json"],
    ["IMG(1).jpg", "IMG.jpg(1).json"],
  ];
  for (const [media, json] of cases) {
    it(`${media} ↔ ${json}`, () => {
      expect(matchTakeoutJson([media, json, "unrelated.jpg.json"]).jsonFor.get(media)).toBe(json);
    });
  }

  it("gives an original and its duplicate their own JSON, and an edited copy the original's", () => {
    const match = matchTakeoutJson(["IMG.jpg", "IMG(1).jpg", "IMG-edited.jpg", "IMG.jpg.json", "IMG.jpg(1).json"]);
    expect(Object.fromEntries(match.jsonFor)).toEqual({ "IMG.jpg": "IMG.jpg.json", "IMG(1).jpg": "IMG.jpg(1).json", "IMG-edited.jpg": "IMG.jpg.json" });
    expect(match.unusedJson).toEqual([]);
  });

  it("does not guess by prefix when two media files share the clipped stem", () => {
    const stem = "A_very_long_name_that_Google_cut_short_at_46_c";
    const match = matchTakeoutJson([`${stem}hars_one.jpg`, `${stem}hars_two.jpg`, `${stem}X.json`]);
    expect(match.jsonFor.size).toBe(0);
  });
});
