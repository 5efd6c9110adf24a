import { describe, expect, it } from "vitest";
import { takeoutPlaceOf } from "./takeout-albums";

describe("takeoutPlaceOf", () => {
  it("makes no album of Google's year folders, in any language, nor of the Google Photos folder itself", () => {
    for (const year of ["Photos from 2019", "Fotos von 2004", "Photos de 2021", "Foto del 2018"]) {
      expect(takeoutPlaceOf(["takeout-001", "Takeout", "Google Photos", year])).toEqual({ kind: "no-album" });
    }
    expect(takeoutPlaceOf(["Takeout", "Google Fotos"])).toEqual({ kind: "no-album" });
  });

  it("finds an album folder below Google Photos, wherever the Takeout lies", () => {
    expect(takeoutPlaceOf(["Downloads", "takeout-002", "Takeout", "Google Photos", "Trip to Rome"])).toEqual({ kind: "album", folder: "Trip to Rome" });
    expect(takeoutPlaceOf(["Google Photos", "Photos from the wedding"])).toEqual({ kind: "album", folder: "Photos from the wedding" });
  });

  it("leaves any other tree to the folder albums", () => {
    expect(takeoutPlaceOf(["Trips", "2024", "Rome"])).toEqual({ kind: "not-takeout" });
    expect(takeoutPlaceOf([])).toEqual({ kind: "not-takeout" });
  });
});
