import { API_TOKEN_SCOPES, type ApiTokenScope, isApiTokenScope } from "@/src/access/scopes";

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
