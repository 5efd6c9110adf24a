import { describe, expect, it } from "vitest";
import { findGuardRule } from "./guard-rules";

describe("findGuardRule", () => {
  it.each([
    ["/admin", { kind: "page", role: "editor", acceptsApiTokens: false }],
    ["/admin/photos", { kind: "page", role: "editor", acceptsApiTokens: false }],
    ["/admin/users", { kind: "page", role: "admin", acceptsApiTokens: false }],
    ["/admin/users/42", { kind: "page", role: "admin", acceptsApiTokens: false }],
    ["/admin/settings", { kind: "page", role: "admin", acceptsApiTokens: false }],
    ["/admin/audit", { kind: "page", role: "admin", acceptsApiTokens: false }],
    ["/admin/tokens", { kind: "page", role: "editor", acceptsApiTokens: false }],
    ["/api/admin/users", { kind: "api", role: "admin", acceptsApiTokens: false }],
    ["/api/upload", { kind: "api", role: "editor", acceptsApiTokens: true }],
    ["/api/upload/tus/abc", { kind: "api", role: "editor", acceptsApiTokens: true }],
    ["/api/photos", { kind: "api", role: "viewer", acceptsApiTokens: true }],
    ["/api/photos/1/original", { kind: "api", role: "viewer", acceptsApiTokens: true }],
    ["/ADMIN/", { kind: "page", role: "editor", acceptsApiTokens: false }],
    ["/Admin/Users/", { kind: "page", role: "admin", acceptsApiTokens: false }],
  ])("%s needs %o", (path, rule) => {
    expect(findGuardRule(path)).toEqual(rule);
  });

  // The API reference is public: it describes the routes and grants nothing.
  it.each(["/", "/administrator", "/admins", "/api/auth/session", "/api/photosx", "/p/1", "/signin", "/api/health", "/api/tokens", "/api/tokens/1", "/api/openapi.json", "/api/docs"])(
    "%s is not guarded",
    (path) => {
      expect(findGuardRule(path)).toBeNull();
    },
  );
});
