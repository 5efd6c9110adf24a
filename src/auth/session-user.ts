import type { SessionUser } from "@/src/access/viewer";
import { getEnv } from "@/src/config/env";
import { getDb } from "@/src/db/client";
import { findUserById } from "@/src/users/users.repository";
import { isSessionRevoked, revokeSession } from "./revoked-sessions.repository";
import type { SessionClaims } from "./session-claims";

export type SessionRefusal = "deleted" | "disabled" | "signed-out" | "too-old";

/**
 * Checks a token's claims against the user's row as it is now. A deleted or disabled user, a token
 * from before "sign out everywhere" or a password reset, and a session past its absolute age are
 * refused; the role always comes from the database, so a demotion applies on the next request.
 */
export async function resolveSessionUser(
  claims: SessionClaims,
): Promise<{ user: SessionUser } | { refusal: SessionRefusal }> {
  const row = await findUserById(getDb(), claims.sub);
  if (!row) return { refusal: "deleted" };
  if (row.disabled_at !== null) return { refusal: "disabled" };
  if (row.session_version !== claims.sessionVersion) return { refusal: "signed-out" };
  const ageSeconds = Date.now() / 1000 - claims.authTime;
  if (ageSeconds > getEnv().SESSION_ABSOLUTE_SECONDS) return { refusal: "too-old" };
  if (await isSessionRevoked(getDb(), claims.sessionId)) return { refusal: "signed-out" };
  return { user: { id: row.id, email: row.email, name: row.name, role: row.role } };
}

/** Signs out one session: its token, if replayed, is refused from now on. */
export async function revokeSessionClaims(claims: SessionClaims): Promise<void> {
  const expiresAt = new Date((claims.authTime + getEnv().SESSION_ABSOLUTE_SECONDS) * 1000).toISOString();
  await revokeSession(getDb(), { sessionId: claims.sessionId, userId: claims.sub, expiresAt }, new Date().toISOString());
}
