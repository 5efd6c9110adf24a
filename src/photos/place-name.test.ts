import { describe, expect, it } from "vitest";
import { placeNameAt } from "./place-name";

describe("placeNameAt", () => {
  it("names the country of known places", () => {
    expect(placeNameAt(38.7223, -9.1393)).toBe("Portugal"); // Lisbon
    expect(placeNameAt(43.46745, 11.88513)).toBe("Italy"); // Arezzo, the corpus's GPS photos
    expect(placeNameAt(35.6812, 139.7671)).toBe("Japan"); // Tokyo
    expect(placeNameAt(-33.8568, 151.2153)).toBe("Australia"); // Sydney
  });

  it("names a territory by its own name, not its sovereign's", () => {
    expect(placeNameAt(18.4655, -66.1057)).toBe("Puerto Rico");
    expect(placeNameAt(64.1814, -51.6941)).toBe("Greenland"); // Nuuk
    expect(placeNameAt(22.3, 114.17)).toBe("Hong Kong");
  });

  it("names a part of a country with the country, and the main part as the country", () => {
    expect(placeNameAt(32.65, -16.9)).toBe("Madeira, Portugal"); // Funchal
    expect(placeNameAt(55.95, -3.2)).toBe("Scotland, United Kingdom"); // Edinburgh
    expect(placeNameAt(40.7, -74)).toBe("United States"); // New York
    expect(placeNameAt(52.37, 4.9)).toBe("Netherlands"); // Amsterdam
    expect(placeNameAt(39.9, 116.4)).toBe("China"); // Beijing
  });

  it("is null at sea and nowhere", () => {
    expect(placeNameAt(30, -40)).toBeNull(); // mid-Atlantic
    expect(placeNameAt(0, 0)).toBeNull(); // a camera without a fix
    expect(placeNameAt(91, 0)).toBeNull();
    expect(placeNameAt(Number.NaN, 10)).toBeNull();
  });
});
