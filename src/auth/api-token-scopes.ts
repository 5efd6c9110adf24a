import { API_TOKEN_SCOPES, type ApiTokenScope } from "@/src/db/database";

export { API_TOKEN_SCOPES, type ApiTokenScope };

export function isApiTokenScope(value: unknown): value is ApiTokenScope {
  return typeof value === "string" && (API_TOKEN_SCOPES as readonly string[]).includes(value);
}

/** Scopes without repeats, in the canonical order of API_TOKEN_SCOPES. */
export function normalizeScopes(scopes: readonly ApiTokenScope[]): ApiTokenScope[] {
  return API_TOKEN_SCOPES.filter((scope) => scopes.includes(scope));
}

/** The column's form: space-separated. */
export function formatStoredScopes(scopes: readonly ApiTokenScope[]): string {
  return normalizeScopes(scopes).join(" ");
}

/** Reads the column back; a word that is not a known scope grants nothing. */
export function parseStoredScopes(stored: string): ApiTokenScope[] {
  return normalizeScopes(stored.split(" ").filter(isApiTokenScope));
}

/** The least role a user needs for a token with this scope to be made (and, by the route, used). */
export const SCOPE_MINIMUM_ROLE = {
  upload: "editor",
  "photos:read": "viewer",
  "photos:write": "viewer",
} as const satisfies Record<ApiTokenScope, "viewer" | "editor" | "admin">;
