import "server-only";
import { cookies } from "next/headers";
import { type CookieReader, readSessionCookie } from "./session-cookie";
import { resolveSessionUser, type SessionUser } from "./session-user";

/** The signed-in user behind these cookies, checked against the database; null when there is none. */
export async function findSessionUser(cookieReader: CookieReader): Promise<SessionUser | null> {
  const claims = await readSessionCookie(cookieReader);
  if (!claims) return null;
  const result = await resolveSessionUser(claims);
  return "user" in result ? result.user : null;
}

/** The same, for server components and server actions. */
export async function findCurrentUser(): Promise<SessionUser | null> {
  return findSessionUser(await cookies());
}
