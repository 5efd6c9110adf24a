import type { Role } from "@/src/access/roles";
import { isRole } from "@/src/access/roles";

/**
 * What Contact Sheet puts in a session token. `kind` tells a session token from next-auth's other
 * encrypted cookies (OAuth state, PKCE verifier), which are sealed with the same key.
 */
export interface SessionClaims {
  kind: "session";
  sub: string;
  /** Random per sign-in; a session signed out on its own is refused by this id. */
  sessionId: string;
  role: Role;
  /** The user's session_version when the token was issued. */
  sessionVersion: number;
  /** Seconds since the epoch when the user signed in; caps the session's absolute age. */
  authTime: number;
}

/** Narrows a decoded token to session claims, or answers null for anything else. */
export function readSessionClaims(token: Record<string, unknown> | null | undefined): SessionClaims | null {
  if (!token || token.kind !== "session") return null;
  const { sub, sessionId, role, sessionVersion, authTime } = token;
  if (typeof sub !== "string" || typeof sessionId !== "string" || !isRole(role)) return null;
  if (typeof sessionVersion !== "number" || typeof authTime !== "number") return null;
  return { kind: "session", sub, sessionId, role, sessionVersion, authTime };
}
