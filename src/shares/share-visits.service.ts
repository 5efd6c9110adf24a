import "server-only";
import { giveBackRateLimitSlot, takeRateLimitSlots } from "@/src/auth/rate-limiter";
import type { DatabaseHandle } from "@/src/db/client";
import type { ShareRow } from "@/src/db/database";
import { MAXIMUM_PASSWORD_LENGTH, verifyPassword } from "@/src/users/password";
import { admitShareVisit, decideShareAccess, type ShareAccess } from "./share-access";
import { recordShareAccess } from "./share-access-log.repository";
import { sharePath } from "./share-key";
import { sharePasswordRateLimits } from "./share-password-limits";
import type { ShareRefusal } from "./share.types";
import { touchShareVisit } from "./shares.repository";
import { hasControlCharacter } from "@/src/validation/input-text";

/**
 * How a browser comes in to a share link (SECURITY.md 44, 59): a link without a password admits a
 * new browser when its page's "View photos" form is posted (POST /s/[key]/api/enter; the page's
 * script sends it at once, a visitor without JavaScript presses it); a link with one admits it once
 * the password is right (POST /s/[key]/api/password). Both count the view against the link's limit
 * atomically (admitShareVisit) and answer the grant cookie's value. Never a GET: link-preview bots
 * and mail scanners fetch links and follow redirects, and must use up no views.
 */

export type ShareEntry =
  | { kind: "admitted"; share: ShareRow; cookieValue: string }
  /** The browser holds a valid grant already: nothing to set. */
  | { kind: "already"; share: ShareRow }
  | { kind: "refused"; reason: ShareRefusal; share?: ShareRow };

export type PasswordAnswer =
  | ShareEntry
  | { kind: "wrong_password"; share: ShareRow }
  | { kind: "rate_limited"; share: ShareRow; retryAfterSeconds: number };

async function admit(db: DatabaseHandle, share: ShareRow, now: Date): Promise<ShareEntry> {
  const admitted = await admitShareVisit(db, share, now);
  if (admitted.kind === "refused") return { kind: "refused", reason: admitted.reason, share };
  return { kind: "admitted", share, cookieValue: admitted.cookieValue };
}

/** POST /s/[key]/api/enter: admits this browser to a link without a password, if it may be admitted. */
export async function enterShare(db: DatabaseHandle, key: string, grantCookieValue: string | null | undefined, now: Date): Promise<ShareEntry> {
  const access = await decideShareAccess(db, key, grantCookieValue, now);
  if (access.kind === "granted") return { kind: "already", share: access.share };
  if (access.kind === "refused") return access;
  return admit(db, access.share, now);
}

/**
 * POST /s/[key]/api/password: checks the password (argon2id), within the rate limits that slow
 * guessers rather than the link (share-password-limits.ts), and admits the browser. A wrong
 * password is logged ("password_refused"); a right one gives its slots back, so the people the
 * link was sent to never use up its allowance by getting in.
 */
export async function submitSharePassword(
  db: DatabaseHandle,
  key: string,
  password: string,
  address: string,
  now: Date,
): Promise<PasswordAnswer> {
  // Decided as for a browser without a grant: entering the password again admits again.
  const access: ShareAccess = await decideShareAccess(db, key, null, now);
  if (access.kind === "granted") return { kind: "already", share: access.share };
  if (access.kind === "admissible") return admit(db, access.share, now);
  if (access.reason !== "password_required" || !access.share) return access;
  const share = access.share;
  const rules = sharePasswordRateLimits(share.id, address);
  const decision = await takeRateLimitSlots(db, rules, now);
  if (!decision.isAllowed) return { kind: "rate_limited", share, retryAfterSeconds: decision.retryAfterSeconds };
  const isRight = password.length > 0 && password.length <= MAXIMUM_PASSWORD_LENGTH && (await verifyPassword(share.password_hash, password));
  if (!isRight) {
    await recordShareAccess(db, { shareId: share.id, event: "password_refused" }, now);
    return { kind: "wrong_password", share };
  }
  for (const rule of rules) await giveBackRateLimitSlot(db, rule);
  return admit(db, share, now);
}

/** An admitted visitor opened a photo page: logged, and the link's "last visit" moves. */
export async function noteSharePhotoView(db: DatabaseHandle, share: ShareRow, photoId: string, now: Date): Promise<void> {
  await recordShareAccess(db, { shareId: share.id, event: "view_photo", photoId }, now);
  await touchShareVisit(db, share.id, now.toISOString());
}

/**
 * Where to send a visitor after they come in: `next` when it is a path under this link
 * (`/s/<key>`, `/s/<key>/…` or `/s/<key>?…`), the link's gallery otherwise. Never another site,
 * never another link, never a protocol-relative or backslashed path.
 */
export function shareReturnPath(key: string, next: string | null | undefined): string {
  const base = sharePath(key);
  if (!next || next.includes("\\") || hasControlCharacter(next) || next.includes("//")) return base;
  if (next === base || next.startsWith(`${base}/`) || next.startsWith(`${base}?`)) return next;
  return base;
}
