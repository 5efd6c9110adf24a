import { describe, expect, it } from "vitest";
import { countryNameOf } from "./country-name";

describe("countryNameOf", () => {
  it("names countries and territories in everyday words", () => {
    expect(countryNameOf("IT")).toBe("Italy");
    expect(countryNameOf("US")).toBe("United States");
    expect(countryNameOf("NL")).toBe("Netherlands");
    expect(countryNameOf("PR")).toBe("Puerto Rico");
    expect(countryNameOf("AQ")).toBe("Antarctica");
  });

  it("is null for codes that are no place one is in", () => {
    expect(countryNameOf("EU")).toBeNull();
    expect(countryNameOf("UN")).toBeNull();
    expect(countryNameOf("XX")).toBeNull();
    expect(countryNameOf("it")).toBeNull();
    expect(countryNameOf("ITA")).toBeNull();
  });
});
