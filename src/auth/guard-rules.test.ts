import { describe, expect, it } from "vitest";
import { findGuardRule } from "./guard-rules";

describe("findGuardRule", () => {
  it.each([
    ["/admin", { kind: "page", role: "editor" }],
    ["/admin/photos", { kind: "page", role: "editor" }],
    ["/admin/users", { kind: "page", role: "admin" }],
    ["/admin/users/42", { kind: "page", role: "admin" }],
    ["/admin/settings", { kind: "page", role: "admin" }],
    ["/admin/audit", { kind: "page", role: "admin" }],
    ["/api/admin/users", { kind: "api", role: "admin" }],
    ["/api/upload", { kind: "api", role: "editor" }],
    ["/api/upload/tus/abc", { kind: "api", role: "editor" }],
    ["/api/photos", { kind: "api", role: "viewer" }],
    ["/api/photos/1/original", { kind: "api", role: "viewer" }],
    ["/ADMIN/", { kind: "page", role: "editor" }],
    ["/Admin/Users/", { kind: "page", role: "admin" }],
  ])("%s needs %o", (path, rule) => {
    expect(findGuardRule(path)).toEqual(rule);
  });

  it.each(["/", "/administrator", "/admins", "/api/auth/session", "/api/photosx", "/p/1", "/signin", "/api/health"])(
    "%s is not guarded",
    (path) => {
      expect(findGuardRule(path)).toBeNull();
    },
  );
});
