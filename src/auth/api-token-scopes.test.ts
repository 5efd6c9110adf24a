import { describe, expect, it } from "vitest";
import { hasRole } from "@/src/access/roles";
import { isApiTokenScope, SCOPE_MINIMUM_ROLE } from "@/src/access/scopes";
import { formatStoredScopes, normalizeScopes, parseStoredScopes } from "./api-token-scopes";
import { createApiTokenSchema } from "./api-tokens.schemas";

describe("API token scopes", () => {
  it("knows exactly upload, photos:read and photos:write", () => {
    expect(["upload", "photos:read", "photos:write"].every(isApiTokenScope)).toBe(true);
    for (const value of ["photos", "photos:*", "admin", "UPLOAD", "", " upload", null, 1]) expect(isApiTokenScope(value)).toBe(false);
  });

  it("stores scopes space-separated in canonical order without repeats", () => {
    expect(formatStoredScopes(["photos:write", "upload", "photos:write"])).toBe("upload photos:write");
    expect(normalizeScopes(["photos:read", "upload"])).toEqual(["upload", "photos:read"]);
  });

  it("reads stored scopes back, and an unknown word grants nothing", () => {
    expect(parseStoredScopes("upload photos:read")).toEqual(["upload", "photos:read"]);
    expect(parseStoredScopes("admin photos:* photos:read  ")).toEqual(["photos:read"]);
    expect(parseStoredScopes("")).toEqual([]);
  });

  it("asks editor for upload and viewer for the photo scopes", () => {
    expect(hasRole("viewer", SCOPE_MINIMUM_ROLE.upload)).toBe(false);
    expect(hasRole("editor", SCOPE_MINIMUM_ROLE.upload)).toBe(true);
    expect(hasRole("viewer", SCOPE_MINIMUM_ROLE["photos:read"])).toBe(true);
    expect(hasRole("viewer", SCOPE_MINIMUM_ROLE["photos:write"])).toBe(true);
  });
});

describe("createApiTokenSchema", () => {
  it("cleans the name, dedupes scopes and defaults to no expiry", () => {
    expect(createApiTokenSchema.parse({ name: " phone\r\nscript ", scopes: ["photos:read", "upload", "upload"] })).toEqual({
      name: "phonescript",
      scopes: ["upload", "photos:read"],
      expiresInDays: null,
    });
  });

  it.each([
    [{ name: "", scopes: ["upload"] }],
    [{ name: "x", scopes: [] }],
    [{ name: "x", scopes: ["admin"] }],
    [{ name: "x", scopes: "upload" }],
    [{ name: "x".repeat(101), scopes: ["upload"] }],
    [{ name: "x", scopes: ["upload"], expiresInDays: 0 }],
    [{ name: "x", scopes: ["upload"], expiresInDays: 1.5 }],
    [{ name: "x", scopes: ["upload"], expiresInDays: 100_000 }],
    [{ name: "x", scopes: ["upload"], userId: "someone-else" }],
  ])("refuses %j", (input) => {
    expect(createApiTokenSchema.safeParse(input).success).toBe(false);
  });
});
