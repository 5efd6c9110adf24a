import { describe, expect, it } from "vitest";
import { coordinatesAtPrecision, effectivePrecision, placePartsAtPrecision } from "./location-precision";

describe("location precision", () => {
  it("keeps exact coordinates, rounds city to 0.1° and region to 1°, and gives none for country", () => {
    expect(coordinatesAtPrecision(41.89021, 12.49223, "exact")).toEqual({ latitude: 41.89021, longitude: 12.49223 });
    expect(coordinatesAtPrecision(41.89021, 12.49223, "city")).toEqual({ latitude: 41.9, longitude: 12.5 });
    expect(coordinatesAtPrecision(-33.86785, 151.20732, "region")).toEqual({ latitude: -34, longitude: 151 });
    expect(coordinatesAtPrecision(41.89021, 12.49223, "country")).toBeNull();
  });

  it("stays inside the valid range at the poles and the date line", () => {
    expect(coordinatesAtPrecision(89.97, 179.97, "city")).toEqual({ latitude: 90, longitude: 180 });
    expect(coordinatesAtPrecision(-89.6, -179.6, "region")).toEqual({ latitude: -90, longitude: -180 });
  });

  it("drops the town below city precision and the region at country precision", () => {
    const place = { city: "Rome", region: "Lazio", countryCode: "IT" };
    expect(placePartsAtPrecision(place, "city")).toEqual(place);
    expect(placePartsAtPrecision(place, "region")).toEqual({ city: null, region: "Lazio", countryCode: "IT" });
    expect(placePartsAtPrecision(place, "country")).toEqual({ city: null, region: null, countryCode: "IT" });
  });

  it("follows the site's default only where the photo did not choose", () => {
    expect(effectivePrecision(null, "city")).toBe("city");
    expect(effectivePrecision("exact", "country")).toBe("exact");
  });
});
