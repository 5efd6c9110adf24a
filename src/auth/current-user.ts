import "server-only";
import { cookies } from "next/headers";
import { cache } from "react";
import { toViewer, type SessionUser, type Viewer } from "@/src/access/viewer";
import { type CookieReader, readSessionCookie } from "./session-cookie";
import { resolveSessionUser } from "./session-user";

/** The signed-in user behind these cookies, checked against the database; null when there is none. */
export async function findSessionUser(cookieReader: CookieReader): Promise<SessionUser | null> {
  const claims = await readSessionCookie(cookieReader);
  if (!claims) return null;
  const result = await resolveSessionUser(claims);
  return "user" in result ? result.user : null;
}

/**
 * Who is asking, for server components and server actions: the page-side twin of the handler
 * wrapper. Memoised per request (React's `cache`), so a page and its metadata share one lookup.
 */
export const findCurrentViewer = cache(async (): Promise<Viewer> => toViewer(await findSessionUser(await cookies())));
