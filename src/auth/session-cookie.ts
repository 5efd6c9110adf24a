import { getToken } from "next-auth/jwt";
import { getEnv } from "@/src/config/env";
import { readSessionClaims, type SessionClaims } from "./session-claims";

/** Anything that lists cookies: NextRequest.cookies, or next/headers' cookies(). */
export interface CookieReader {
  getAll(): Array<{ name: string; value: string }>;
}

export function usesSecureCookies(): boolean {
  return getEnv().NEXTAUTH_URL.startsWith("https://");
}

export function getSessionCookieName(): string {
  return usesSecureCookies() ? "__Secure-next-auth.session-token" : "next-auth.session-token";
}

/**
 * Decrypts the session cookie and answers its claims, or null when there is none or it is expired,
 * tampered with, sealed with another secret, unencrypted, or not a session token at all.
 */
export async function readSessionCookie(cookies: CookieReader): Promise<SessionClaims | null> {
  const token = await getToken({
    // No headers on purpose: getToken would otherwise accept a session token as a Bearer header.
    req: { cookies, headers: {} } as unknown as Parameters<typeof getToken>[0]["req"],
    secret: getEnv().NEXTAUTH_SECRET,
    secureCookie: usesSecureCookies(),
    cookieName: getSessionCookieName(),
    logger: { ...console, error: () => undefined },
  });
  return readSessionClaims(token as Record<string, unknown> | null);
}

/** Whether the request carries a session cookie at all (valid or not). */
export function hasSessionCookie(cookies: CookieReader): boolean {
  const name = getSessionCookieName();
  return cookies.getAll().some((cookie) => cookie.name.startsWith(name));
}
