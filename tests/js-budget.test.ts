import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BUILD_DIRECTORY, routeChunkFiles, routeJavaScriptBytes } from "./helpers/route-javascript";

// Issue 34: a public page loads no more than 20 KB of JavaScript (compressed) above the framework's
// own floor, measured as the not-found page of the same build (the root layout and nothing else).
// Read from the build's manifests, never timed: it cannot flake. Every page under app/(gallery) and
// app/s is public (a visitor may open it), so a new one is held to the budget without being named here.
const BUDGET_ABOVE_FLOOR_BYTES = 20 * 1024;
const FLOOR_ROUTE = "/_not-found/page";

/** The routes ("/(gallery)/p/[id]/page") of every page in the built app under these folders of app/. */
function builtPages(...folders: string[]): string[] {
  const found: string[] = [];
  const walk = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(BUILD_DIRECTORY, "server/app", relative), { withFileTypes: true })) {
      const child = path.posix.join(relative, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (entry.name === "page_client-reference-manifest.js") found.push(`/${relative}/page`);
    }
  };
  for (const folder of folders) walk(folder);
  return found.sort();
}

const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

describe("the JavaScript each public page loads", () => {
  const floor = routeJavaScriptBytes(FLOOR_ROUTE);
  const pages = builtPages("(gallery)", "s");

  it("finds the public pages in the build", () => {
    expect(pages).toContain("/(gallery)/page");
    expect(pages).toContain("/(gallery)/p/[id]/page");
    expect(pages).toContain("/s/[key]/p/[photoId]/page");
    expect(pages.length).toBeGreaterThanOrEqual(14);
  });

  it.each(builtPages("(gallery)", "s"))(`%s loads at most ${kilobytes(BUDGET_ABOVE_FLOOR_BYTES)} above the not-found page`, (route) => {
    const bytes = routeJavaScriptBytes(route);
    const floorFiles = new Set(routeChunkFiles(FLOOR_ROUTE));
    const own = routeChunkFiles(route).filter((file) => !floorFiles.has(file));
    console.log(`${route}: ${kilobytes(bytes)} (floor ${kilobytes(floor)}; its own chunks: ${own.map((file) => path.basename(file)).join(", ") || "none"})`);
    expect(bytes - floor, `${route} loads ${kilobytes(bytes - floor)} above the floor`).toBeLessThanOrEqual(BUDGET_ABOVE_FLOOR_BYTES);
  });

  it("keeps zod out of the pages a visitor opens (it is the API's, 30 KB compressed)", () => {
    const carryingZod = pages.flatMap((route) =>
      routeChunkFiles(route)
        .filter((file) => fs.readFileSync(path.join(BUILD_DIRECTORY, file), "utf8").includes("ZodError"))
        .map((file) => `${route}: ${file}`),
    );
    expect(carryingZod).toEqual([]);
  });
});
