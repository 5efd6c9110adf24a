import type { Role } from "@/src/access/roles";

/** How a guarded path answers a caller who may not pass: pages redirect, APIs answer JSON. */
export interface GuardRule {
  kind: "page" | "api";
  role: Role;
  /** Whether an API token (`Authorization: Bearer`) may stand in for the session here. */
  acceptsApiTokens: boolean;
}

const ADMIN_ONLY_PAGES = ["/admin/users", "/admin/settings", "/admin/audit", "/admin/tags"];

function isUnder(pathname: string, prefix: string): boolean {
  return pathname === prefix || pathname.startsWith(`${prefix}/`);
}

/**
 * The interceptor's table (PRODUCT.md): which role a path needs, or null for unguarded paths.
 * Lower-cased and without a trailing slash, so `/ADMIN/` is judged as `/admin`; the routes
 * themselves are case-sensitive, and each page and handler checks again anyway.
 */
export function findGuardRule(rawPathname: string): GuardRule | null {
  const pathname = rawPathname.toLowerCase().replace(/\/+$/, "") || "/";
  if (isUnder(pathname, "/api/admin")) return { kind: "api", role: "admin", acceptsApiTokens: false };
  if (isUnder(pathname, "/api/upload")) return { kind: "api", role: "editor", acceptsApiTokens: true };
  if (isUnder(pathname, "/api/photos")) return { kind: "api", role: "viewer", acceptsApiTokens: true };
  if (isUnder(pathname, "/api/shares")) return { kind: "api", role: "editor", acceptsApiTokens: true };
  if (ADMIN_ONLY_PAGES.some((prefix) => isUnder(pathname, prefix))) return { kind: "page", role: "admin", acceptsApiTokens: false };
  if (isUnder(pathname, "/admin")) return { kind: "page", role: "editor", acceptsApiTokens: false };
  return null;
}
