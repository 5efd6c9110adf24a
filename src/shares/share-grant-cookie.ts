import "server-only";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { getEnv } from "@/src/config/env";
import { sharePath } from "./share-key";
import { SHARE_GRANT_COOKIE } from "./share.types";

/**
 * The grant a visitor holds after being admitted to a link (and, for a password link, after
 * entering the password): a cookie scoped to `/s/[key]` (so it reaches the link's pages, images,
 * ZIP and API and nothing else), signed with a key derived from NEXTAUTH_SECRET. It names the share
 * and its grant version: changing the password bumps the version and every earlier grant dies.
 * Revocation and expiry need no cookie change: the share row is read on every request.
 */

// Long enough for a client to come back to the gallery over a month; expiry of the link itself is separate.
const GRANT_MAX_AGE_SECONDS = 60 * 60 * 24 * 90;

export interface ShareGrant {
  shareId: string;
  grantVersion: number;
  /** One admitted browser; the access log and proofing tell visits apart by it. */
  visitId: string;
  issuedAt: number;
}

function signingKey(): Buffer {
  return createHmac("sha256", getEnv().NEXTAUTH_SECRET).update("contact-sheet share grant v1").digest();
}

function sign(payload: string): string {
  return createHmac("sha256", signingKey()).update(payload).digest("base64url");
}

/** The cookie value for a new grant. */
export function encodeShareGrant(shareId: string, grantVersion: number, now: Date): { value: string; grant: ShareGrant } {
  const grant: ShareGrant = { shareId, grantVersion, visitId: randomBytes(12).toString("base64url"), issuedAt: Math.floor(now.getTime() / 1000) };
  const payload = Buffer.from(JSON.stringify([grant.shareId, grant.grantVersion, grant.visitId, grant.issuedAt])).toString("base64url");
  return { value: `${payload}.${sign(payload)}`, grant };
}

/** The grant in a cookie value, or null when it is missing, malformed or not signed by us. */
export function decodeShareGrant(value: string | undefined | null): ShareGrant | null {
  if (!value || value.length > 512) return null;
  const [payload, signature, extra] = value.split(".");
  if (!payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(sign(payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    if (!Array.isArray(parsed) || parsed.length !== 4) return null;
    const [shareId, grantVersion, visitId, issuedAt] = parsed as unknown[];
    if (typeof shareId !== "string" || typeof visitId !== "string") return null;
    if (!Number.isInteger(grantVersion) || !Number.isInteger(issuedAt)) return null;
    return { shareId, grantVersion: grantVersion as number, visitId, issuedAt: issuedAt as number };
  } catch {
    return null;
  }
}

/** The Set-Cookie header that gives a visitor their grant for the link with this key. */
export function grantCookieHeader(key: string, value: string, isSecure: boolean): string {
  return [
    `${SHARE_GRANT_COOKIE}=${value}`,
    `Path=${sharePath(key)}`,
    `Max-Age=${GRANT_MAX_AGE_SECONDS}`,
    "HttpOnly",
    "SameSite=Lax",
    ...(isSecure ? ["Secure"] : []),
  ].join("; ");
}
