import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findHandlerDescription } from "../handler-contract";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/**
 * The only route exports not made by our wrappers, and why. next-auth answers with its own
 * handler (its CSRF check, redirects and errors are its own); the /api catch-all only answers
 * JSON 404s for paths with no handler. Both are described in the OpenAPI document by hand
 * (src/http/openapi/unwrapped-routes.ts).
 */
const UNWRAPPED_EXPORTS: Record<string, string[]> = {
  "app/api/auth/[...nextauth]/route.ts": ["GET", "POST"],
  "app/api/[...path]/route.ts": ["GET", "POST", "PUT", "PATCH", "DELETE"],
};

/** Every route file under app/: the API, /media and the photo page's download. */
function listRouteFiles(): string[] {
  return fs
    .readdirSync(path.join(ROOT, "app"), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name === "route.ts")
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .sort();
}

describe("every exported HTTP method of every route goes through the handler wrapper", () => {
  const files = listRouteFiles();

  it("finds the routes (the walk itself works)", () => {
    expect(files).toContain("app/api/photos/route.ts");
    expect(files).toContain("app/media/[...key]/route.ts");
    expect(files).toContain("app/(gallery)/p/[id]/download/route.ts");
    expect(files.length).toBeGreaterThan(20);
  });

  // The first file's import loads the services and the database client behind every route: seconds
  // on a busy machine (contracts-in-use.test.ts loads them too, in another worker), more than the
  // default timeout.
  it.each(files)("%s", { timeout: 60_000 }, async (file) => {
    const exports = (await import(path.join(ROOT, file))) as Record<string, unknown>;
    const methods = HTTP_METHODS.filter((method) => method in exports);
    expect(methods.length, "a route file exports at least one method").toBeGreaterThan(0);
    const unwrapped = methods.filter((method) => findHandlerDescription(exports[method]) === null);
    expect(unwrapped).toEqual(UNWRAPPED_EXPORTS[file] ?? []);
  });
});
