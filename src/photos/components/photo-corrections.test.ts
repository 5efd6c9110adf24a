import { describe, expect, it } from "vitest";
import { changedCorrections, type CorrectionFields, joinTakenAt, splitTakenAt, turn } from "./photo-corrections";

const SAVED: CorrectionFields = { takenAtLocal: "2019-05-03T14:32:00", takenAtOffset: "+02:00", latitude: "32.65", longitude: "-16.9", placeCity: "Funchal", placeRegion: "Madeira", rotation: 0 };

describe("the photo editor's corrections", () => {
  it("splits a stored date into the local time and its offset, and joins them back", () => {
    expect(splitTakenAt("2019-05-03T14:32:00+02:00")).toEqual({ local: "2019-05-03T14:32:00", offset: "+02:00" });
    expect(splitTakenAt("2019-05-03T14:32:00")).toEqual({ local: "2019-05-03T14:32:00", offset: "" });
    expect(splitTakenAt(null)).toEqual({ local: "", offset: "" });
    expect(joinTakenAt("2019-05-03T14:32", "-09:30")).toBe("2019-05-03T14:32-09:30");
    expect(joinTakenAt("", "+02:00")).toBeNull();
  });

  it("turns by quarters both ways, round the circle", () => {
    expect(turn(0, "right")).toBe(90);
    expect(turn(270, "right")).toBe(0);
    expect(turn(0, "left")).toBe(270);
    expect(turn(90, "left")).toBe(0);
  });

  it("sends only what changed", () => {
    expect(changedCorrections(SAVED, SAVED)).toEqual({});
    expect(changedCorrections(SAVED, { ...SAVED, takenAtOffset: "" })).toEqual({ takenAt: "2019-05-03T14:32:00" });
    expect(changedCorrections(SAVED, { ...SAVED, takenAtLocal: "" })).toEqual({ takenAt: null });
    expect(changedCorrections(SAVED, { ...SAVED, latitude: "", longitude: "" })).toEqual({ location: null });
    expect(changedCorrections(SAVED, { ...SAVED, latitude: " 40.4168 " })).toEqual({ location: { latitude: 40.4168, longitude: -16.9 } });
    expect(changedCorrections(SAVED, { ...SAVED, rotation: 270 })).toEqual({ rotation: 270 });
    expect(changedCorrections(SAVED, { ...SAVED, placeCity: " Câmara de Lobos " })).toEqual({ place: { city: "Câmara de Lobos", region: "Madeira" } });
    expect(changedCorrections(SAVED, { ...SAVED, placeCity: "", placeRegion: "Madeira" })).toEqual({ place: { city: "", region: "Madeira" } });
  });

  it("asks for the place to be named again when both its names are emptied", () => {
    expect(changedCorrections(SAVED, { ...SAVED, placeCity: " ", placeRegion: "" })).toEqual({ place: null });
    // Moved, names untouched: only the coordinates go; the gallery names the new place.
    expect(changedCorrections(SAVED, { ...SAVED, latitude: "38.72", longitude: "-9.14" })).toEqual({ location: { latitude: 38.72, longitude: -9.14 } });
  });

  it("sends an unreadable coordinate as not a number, for the API to refuse", () => {
    const { location } = changedCorrections(SAVED, { ...SAVED, longitude: "" });
    expect(location?.latitude).toBe(32.65);
    expect(Number.isNaN(location?.longitude)).toBe(true);
  });
});
