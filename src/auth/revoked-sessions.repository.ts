import type { DatabaseHandle } from "@/src/db/client";

export async function isSessionRevoked(db: DatabaseHandle, sessionId: string): Promise<boolean> {
  const row = await db.selectFrom("revoked_sessions").select("session_id").where("session_id", "=", sessionId).executeTakeFirst();
  return row !== undefined;
}

/** Records a signed-out session, and forgets those that have expired anyway. */
export async function revokeSession(
  db: DatabaseHandle,
  session: { sessionId: string; userId: string; expiresAt: string },
  now: string,
): Promise<void> {
  await db.deleteFrom("revoked_sessions").where("expires_at", "<", now).execute();
  await db
    .insertInto("revoked_sessions")
    .values({ session_id: session.sessionId, user_id: session.userId, expires_at: session.expiresAt })
    .onConflict((conflict) => conflict.column("session_id").doNothing())
    .execute();
}
