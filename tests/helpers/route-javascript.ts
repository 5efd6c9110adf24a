// The JavaScript a first visit to a route of the last `next build` loads, read from the build's
// own records rather than a browser: `.next/build-manifest.json`'s rootMainFiles (the runtime every
// page starts with; its polyfillFiles are nomodule and never fetched by a current browser) and, per
// route, the `entryJSFiles` of its `page_client-reference-manifest.js` (every layout's, boundary's
// and the page's client chunks, which Next.js writes into the HTML as script tags). Sizes are gzip
// (level 6, as the server compresses), so they compare with what Lighthouse sees transferred.
import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";
import zlib from "node:zlib";

export const BUILD_DIRECTORY = path.resolve(import.meta.dirname, "../../.next");

/** The route's chunk files (relative to .next), for a route such as "/(gallery)/p/[id]/page". */
export function routeChunkFiles(route: string): string[] {
  const buildManifest = JSON.parse(fs.readFileSync(path.join(BUILD_DIRECTORY, "build-manifest.json"), "utf8")) as { rootMainFiles: string[] };
  const manifestFile = path.join(BUILD_DIRECTORY, "server/app", route.slice(1).replace(/\/page$/, ""), "page_client-reference-manifest.js");
  // The manifest is a script that assigns globalThis.__RSC_MANIFEST[route]; run it in a sandbox of its own.
  const sandbox: { __RSC_MANIFEST?: Record<string, { entryJSFiles: Record<string, string[]> }> } = {};
  vm.runInNewContext(fs.readFileSync(manifestFile, "utf8"), sandbox);
  const entry = sandbox.__RSC_MANIFEST?.[route];
  if (!entry) throw new Error(`${manifestFile} does not describe ${route}`);
  return [...new Set([...buildManifest.rootMainFiles, ...Object.values(entry.entryJSFiles).flat()])];
}

/** The compressed bytes of those files. */
export function routeJavaScriptBytes(route: string): number {
  return routeChunkFiles(route).reduce((sum, file) => sum + zlib.gzipSync(fs.readFileSync(path.join(BUILD_DIRECTORY, file))).length, 0);
}
