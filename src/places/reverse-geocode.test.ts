import { beforeAll, describe, expect, it } from "vitest";
import { loadPlaceGazetteer, type PlaceGazetteer } from "./place-gazetteer";
import { type GeocodedPlace, reverseGeocode } from "./reverse-geocode";

let gazetteer: PlaceGazetteer;
beforeAll(() => {
  gazetteer = loadPlaceGazetteer();
});

function place(countryCode: string | null, region: string | null, city: string | null, timeZone: string | null): GeocodedPlace {
  return { countryCode, region, city, timeZone };
}

describe("reverseGeocode", () => {
  // The corpus's GPS photos (/work/shared/corpus), their coordinates as the EXIF reader gives them,
  // each checked by hand on a map.
  it.each([
    // exif-samples/jpg/gps/DSCN0010.jpg: the old town of Arezzo, near the Piazza Grande.
    ["DSCN0010.jpg", 43.46744833333334, 11.885126666663888, place("IT", "Tuscany", "Arezzo", "Europe/Rome")],
    // DSCN0042.jpg: the south end of the same walk, still inside Arezzo.
    ["DSCN0042.jpg", 43.464455, 11.881478333333334, place("IT", "Tuscany", "Arezzo", "Europe/Rome")],
    // immich metadata/gps-position/thompson-springs.jpg: on I-70 east of Grand Junction, between
    // Clifton (about 4.9 km, 20,000 people) and Palisade (4.3 km, 2,700): the larger town's reach wins.
    ["thompson-springs.jpg", 39.115, -108.40096833333334, place("US", "Colorado", "Clifton", "America/Denver")],
    // immich metadata/dates/datetimeoriginal-gps.jpg: 39° N 108° W, open country near Cedaredge.
    ["datetimeoriginal-gps.jpg", 39, -108, place("US", "Colorado", "Cedaredge", "America/Denver")],
    // immich metadata/dates/gps-datetime.jpg: San Francisco's city hall coordinates.
    ["gps-datetime.jpg", 37.7749, -122.4194, place("US", "California", "San Francisco", "America/Los_Angeles")],
  ])("names the corpus photo %s", (_file, latitude, longitude, expected) => {
    expect(reverseGeocode(gazetteer, latitude, longitude)).toEqual(expected);
  });

  it("never names a town across a border, however large or near", () => {
    // Kehl's centre: Strasbourg (290,000 people) is 5 km away, across the Rhine.
    expect(reverseGeocode(gazetteer, 48.5725, 7.815)).toEqual(place("DE", "Baden-Wurttemberg", "Kehl", "Europe/Berlin"));
    expect(reverseGeocode(gazetteer, 48.5839, 7.7455)).toEqual(place("FR", "Grand Est", "Strasbourg", "Europe/Paris"));
    // Görlitz and Zgorzelec, one town split by the Neisse.
    expect(reverseGeocode(gazetteer, 51.15, 15.01)?.city).toBe("Zgorzelec");
    expect(reverseGeocode(gazetteer, 51.153, 14.985)?.city).toBe("Görlitz");
    // A Belgian enclave inside the Netherlands (Baarle-Hertog): Belgian, by its border.
    expect(reverseGeocode(gazetteer, 51.4387, 4.9275)).toMatchObject({ countryCode: "BE", region: "Flanders", city: "Baarle-Hertog" });
  });

  it("names a suburb after its city, not the nearest village centre", () => {
    expect(reverseGeocode(gazetteer, 41.85, 12.56)).toEqual(place("IT", "Lazio", "Rome", "Europe/Rome"));
  });

  it("names a territory by its own code", () => {
    expect(reverseGeocode(gazetteer, 18.4655, -66.1057)).toMatchObject({ countryCode: "PR", city: "San Juan", timeZone: "America/Puerto_Rico" });
    expect(reverseGeocode(gazetteer, 64.1814, -51.6941)).toMatchObject({ countryCode: "GL", city: "Nuuk" });
  });

  it("answers at the poles, on the date line and at sea with what is known", () => {
    expect(reverseGeocode(gazetteer, 90, 0)).toEqual(place(null, null, null, "Etc/GMT"));
    expect(reverseGeocode(gazetteer, -90, 0)).toEqual(place("AQ", null, null, "Antarctica/McMurdo"));
    expect(reverseGeocode(gazetteer, -90, 180)?.countryCode).toBe("AQ");
    // 180° E and 180° W are one line: the same answer.
    expect(reverseGeocode(gazetteer, -16.8, 180)).toEqual(reverseGeocode(gazetteer, -16.8, -180));
    expect(reverseGeocode(gazetteer, -16.8, 180)?.countryCode).toBe("FJ");
    // Taveuni, Fiji, just east of the antimeridian: its region lies on both sides of it.
    expect(reverseGeocode(gazetteer, -16.8, -179.95)).toMatchObject({ countryCode: "FJ", region: "Northern", timeZone: "Pacific/Fiji" });
    expect(reverseGeocode(gazetteer, 65, -175)).toMatchObject({ countryCode: "RU", timeZone: "Asia/Anadyr" });
    expect(reverseGeocode(gazetteer, 30, -40)).toEqual(place(null, null, null, "Etc/GMT+3"));
    // The middle of the Sahara: the country, but no town within reach to name.
    expect(reverseGeocode(gazetteer, 23, 12)).toEqual(place("NE", null, null, "Africa/Niamey"));
  });

  it("is null for coordinates that are no fix", () => {
    expect(reverseGeocode(gazetteer, 0, 0)).toBeNull();
    expect(reverseGeocode(gazetteer, Number.NaN, 10)).toBeNull();
    expect(reverseGeocode(gazetteer, 10, Number.POSITIVE_INFINITY)).toBeNull();
    expect(reverseGeocode(gazetteer, 90.0001, 0)).toBeNull();
    expect(reverseGeocode(gazetteer, 0, -180.5)).toBeNull();
  });
});
