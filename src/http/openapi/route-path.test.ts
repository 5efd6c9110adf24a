import { describe, expect, it } from "vitest";
import { listPathParameters, toOpenApiPaths } from "./route-path";

describe("toOpenApiPaths", () => {
  it.each([
    ["app/api/photos/route.ts", ["/api/photos"]],
    ["app/api/photos/[id]/route.ts", ["/api/photos/{id}"]],
    ["app/media/[...key]/route.ts", ["/media/{key}"]],
    ["app/(gallery)/p/[id]/download/route.ts", ["/p/{id}/download"]],
    ["app/api/upload/tus/[[...path]]/route.ts", ["/api/upload/tus", "/api/upload/tus/{path}"]],
    ["app/api/openapi.json/route.ts", ["/api/openapi.json"]],
  ])("%s answers at %j", (file, paths) => {
    expect(toOpenApiPaths(file)).toEqual(paths);
  });

  it("lists a template's parameters", () => {
    expect(listPathParameters("/api/admin/users/{id}/password")).toEqual(["id"]);
  });
});
