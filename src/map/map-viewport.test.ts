import { describe, expect, it } from "vitest";
import { parseMapViewport } from "./map-viewport";

describe("parseMapViewport", () => {
  it("reads a box and a zoom, across the date line too", () => {
    expect(parseMapViewport({ bbox: "12.1,41.5,12.9,42.1", zoom: "9" })).toEqual({ west: 12.1, south: 41.5, east: 12.9, north: 42.1, zoom: 9 });
    expect(parseMapViewport({ bbox: "170,-20,-170,10", zoom: "3" })).toMatchObject({ west: 170, east: -170 });
  });

  it.each([
    [{ bbox: "1,2,3", zoom: "1" }, /four numbers/],
    [{ bbox: "NaN,0,1,1", zoom: "1" }, /west is not a number/],
    [{ bbox: "0,0,Infinity,1", zoom: "1" }, /east is not a number/],
    [{ bbox: "0,-91,1,1", zoom: "1" }, /south must be between/],
    [{ bbox: "-181,0,1,1", zoom: "1" }, /west must be between/],
    [{ bbox: "0,10,1,5", zoom: "1" }, /south is north of its north/],
    [{ bbox: "0,0,1,1", zoom: "21" }, /zoom must be from 0/],
    [{ bbox: "0,0,1,1", zoom: "1.5" }, /whole number/],
    [{ bbox: "0,0,1,1" }, /whole number/],
    [{ zoom: "1" }, /west,south,east,north/],
    [{ bbox: "1".repeat(10_000), zoom: "1" }, /too long/],
  ])("refuses %j with a 400 that says why", (query, message) => {
    expect(() => parseMapViewport(query)).toThrow(message);
  });
});
