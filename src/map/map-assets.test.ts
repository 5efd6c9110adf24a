import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { MAPLIBRE_VERSION } from "./map-assets";

describe("the map's worker URL", () => {
  it("names the installed maplibre-gl's version, so a new release is never answered from a stale cache", () => {
    const installed = JSON.parse(fs.readFileSync("node_modules/maplibre-gl/package.json", "utf8")) as { version: string };
    expect(MAPLIBRE_VERSION).toBe(installed.version);
  });
});
