import { describe, expect, it } from "vitest";
import { ImportReadError } from "./import-read-error";
import { readTakeoutAlbumJson, readTakeoutPhotoJson, takenAtFromUnixSeconds } from "./takeout-json-reader";

const bytes = (value: unknown) => new TextEncoder().encode(typeof value === "string" ? value : JSON.stringify(value));

describe("readTakeoutPhotoJson", () => {
  it("reads the caption, the date taken in UTC, the owner's place before the camera's, and the favourite", () => {
    const { value, warnings } = readTakeoutPhotoJson(
      bytes({
        title: "IMG_1234.jpg",
        description: "Grandma's birthday",
        photoTakenTime: { timestamp: "1557923530", formatted: "15 May 2019, 12:32:10 UTC" },
        geoData: { latitude: 41.9, longitude: 12.5, altitude: 0 },
        geoDataExif: { latitude: 48.85, longitude: 2.35, altitude: 0 },
        favorited: true,
      }),
      "IMG_1234.jpg.json",
    );
    expect(value).toEqual({
      originalName: "IMG_1234.jpg",
      metadata: { description: "Grandma's birthday", takenAt: "2019-05-15T12:32:10+00:00", location: { latitude: 41.9, longitude: 12.5 }, favourite: true },
    });
    expect(warnings).toEqual([]);
  });

  it("takes a title that is not a file name, and the camera's place when the owner's is 0,0", () => {
    const { value } = readTakeoutPhotoJson(bytes({ title: "Our wedding", geoData: { latitude: 0, longitude: 0 }, geoDataExif: { latitude: -33.86, longitude: 151.2 } }), "a.json");
    expect(value.metadata).toEqual({ title: "Our wedding", location: { latitude: -33.86, longitude: 151.2 } });
  });

  it("leaves out absurd dates and coordinates with a warning naming the file", () => {
    const { value, warnings } = readTakeoutPhotoJson(
      bytes({ photoTakenTime: { timestamp: "-5000000000" }, geoData: { latitude: 123, longitude: 12 } }),
      "odd.json",
    );
    expect(value.metadata).toEqual({});
    expect(warnings).toEqual([expect.stringMatching(/^odd\.json: photoTakenTime/), expect.stringMatching(/^odd\.json: geoData /)]);
    expect(readTakeoutPhotoJson(bytes({ photoTakenTime: { timestamp: "0" } }), "zero.json").value.metadata).toEqual({});
    expect(readTakeoutPhotoJson(bytes({ photoTakenTime: { timestamp: "99999999999" } }), "far.json").warnings).toHaveLength(1);
  });

  it("refuses what is not a JSON object, naming the file", () => {
    expect(() => readTakeoutPhotoJson(bytes("{not json"), "broken.json")).toThrow(ImportReadError);
    expect(() => readTakeoutPhotoJson(bytes("[1,2]"), "list.json")).toThrow(/^list\.json: /);
  });
});

describe("Takeout helpers", () => {
  it("reads an album's title", () => {
    expect(readTakeoutAlbumJson(bytes({ title: "Trip to Rome", description: "" }), "metadata.json").value).toEqual({ title: "Trip to Rome" });
  });

  it("turns unix seconds into UTC with its offset", () => {
    expect(takenAtFromUnixSeconds("0")).toBeNull();
    expect(takenAtFromUnixSeconds(1)).toBe("1970-01-01T00:00:01+00:00");
    expect(takenAtFromUnixSeconds("1.5")).toBeNull();
  });
});
