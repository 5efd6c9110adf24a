import { hasRole, type Role } from "@/src/access/roles";

/**
 * What an API token may be made for. Client-safe: the token form, the token service, the handler
 * wrapper and the OpenAPI document all read this one registry.
 */
export const API_TOKEN_SCOPES = ["upload", "photos:read", "photos:write"] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

/** The least role a user needs for a token with this scope to be made (and, by the route, used). */
export const SCOPE_MINIMUM_ROLE = {
  upload: "editor",
  "photos:read": "viewer",
  "photos:write": "viewer",
} as const satisfies Record<ApiTokenScope, Role>;

/** What each scope opens, in words for the token form and the API reference. */
export const SCOPE_DESCRIPTIONS: Record<ApiTokenScope, string> = {
  upload: "Upload photos: POST /api/upload and /api/upload/tus",
  "photos:read": "Read the photos, albums and tags you may see: GET /api/photos…, /api/albums…, /api/tags…, your library and trash, your share links and their access logs (GET /api/shares…)",
  "photos:write": "Change, tag, arrange and delete your photos and albums: PATCH /api/photos, PATCH, DELETE /api/photos/{id}, PUT /api/photos/{id}/tags, /api/albums…, the trash, share links (POST /api/shares, PATCH, DELETE /api/shares/{id})",
};

export function isApiTokenScope(value: unknown): value is ApiTokenScope {
  return typeof value === "string" && (API_TOKEN_SCOPES as readonly string[]).includes(value);
}

/** The scopes a user with this role may put on a token. */
export function scopesForRole(role: Role): ApiTokenScope[] {
  return API_TOKEN_SCOPES.filter((scope) => hasRole(role, SCOPE_MINIMUM_ROLE[scope]));
}
