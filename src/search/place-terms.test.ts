import { describe, expect, it } from "vitest";
import { placeNamesStartingWith, resolvePlaceNames, type StoredPlace } from "./place-terms";

const PLACES: StoredPlace[] = [
  { city: "Zürich", region: "Zurich", country_code: "CH" },
  { city: "Rome", region: "Lazio", country_code: "IT" },
  { city: "Rome", region: "Georgia", country_code: "US" },
  { city: "New York", region: "New York", country_code: "US" },
  { city: null, region: "Valais", country_code: "CH" },
  { city: "100% Town_", region: null, country_code: null },
];

describe("resolvePlaceNames", () => {
  it("names towns, regions and countries by their whole name, accents, case and spaces ignored", () => {
    expect(resolvePlaceNames("zurich", PLACES)).toEqual({ cities: ["Zürich"], regions: ["Zurich"], countryCodes: [] });
    expect(resolvePlaceNames("ROME", PLACES)).toEqual({ cities: ["Rome"], regions: [], countryCodes: [] });
    expect(resolvePlaceNames("  new   york ", PLACES)).toEqual({ cities: ["New York"], regions: ["New York"], countryCodes: [] });
    expect(resolvePlaceNames("Switzerland", PLACES)).toEqual({ cities: [], regions: [], countryCodes: ["CH"] });
    expect(resolvePlaceNames("united states", PLACES)).toEqual({ cities: [], regions: [], countryCodes: ["US"] });
    expect(resolvePlaceNames("Rom", PLACES)).toEqual({ cities: [], regions: [], countryCodes: [] });
  });

  it("takes a country's two-letter code in any case", () => {
    expect(resolvePlaceNames("it", PLACES).countryCodes).toEqual(["IT"]);
    expect(resolvePlaceNames("CH", PLACES).countryCodes).toEqual(["CH"]);
    expect(resolvePlaceNames("FR", PLACES).countryCodes).toEqual([]);
  });

  it("matches SQL wildcards only as themselves", () => {
    expect(resolvePlaceNames("%", PLACES)).toEqual({ cities: [], regions: [], countryCodes: [] });
    expect(resolvePlaceNames("R_me", PLACES)).toEqual({ cities: [], regions: [], countryCodes: [] });
    expect(resolvePlaceNames("100% town_", PLACES).cities).toEqual(["100% Town_"]);
    expect(resolvePlaceNames("", PLACES)).toEqual({ cities: [], regions: [], countryCodes: [] });
  });
});

describe("placeNamesStartingWith", () => {
  it("offers each folded name once, the same whatever order the places come in", () => {
    expect(placeNamesStartingWith("zu", PLACES, 10)).toEqual(["Zurich"]);
    expect(placeNamesStartingWith("zu", [...PLACES].reverse(), 10)).toEqual(["Zurich"]);
    expect(placeNamesStartingWith("s", PLACES, 10)).toEqual(["Switzerland"]);
    expect(placeNamesStartingWith("NEW", PLACES, 10)).toEqual(["New York"]);
    expect(placeNamesStartingWith("u", PLACES, 1)).toEqual(["United States"]);
    expect(placeNamesStartingWith("  ", PLACES, 10)).toEqual([]);
  });
});
