import "server-only";
import type { DatabaseHandle } from "@/src/db/client";
import type { ShareRow } from "@/src/db/database";
import { AppError } from "@/src/errors/app-error";
import { recordShareAccess } from "./share-access-log.repository";
import { decodeShareGrant, encodeShareGrant, type ShareGrant } from "./share-grant-cookie";
import { isWellFormedShareKey } from "./share-key";
import { shareState } from "./share-state";
import type { ShareRefusal } from "./share.types";
import { countShareVisit, findShareByKey } from "./shares.repository";

/**
 * The one gate of every share path (pages, variants, downloads, the ZIP, the visitor API). It reads
 * the share row on every request, so revoking or expiring a link ends every kind of access from
 * the next request, on every instance, with no cache to drop.
 *
 * - granted: the browser was admitted (its grant cookie is signed, names this share and its current
 *   grant version) and the link is neither revoked nor expired. An admitted browser keeps its
 *   access after the view limit is reached by others: the limit counts admissions.
 * - admissible: no grant yet, and the link may admit one more browser (no password, views left).
 *   Only a person's POST admits (admitShareVisit: the page's "View photos" form or the password),
 *   never a GET a preview bot makes; every other path answers 401.
 * - refused: 401 for every path, with the reason a page shows. `share` is set when the key named
 *   a real link, for the page's branding; the API never says which reason applied.
 */
export type ShareAccess =
  | { kind: "granted"; share: ShareRow; grant: ShareGrant }
  | { kind: "admissible"; share: ShareRow }
  | { kind: "refused"; reason: ShareRefusal; share?: ShareRow };

export async function decideShareAccess(
  db: DatabaseHandle,
  key: string,
  grantCookieValue: string | undefined | null,
  now: Date,
): Promise<ShareAccess> {
  if (!isWellFormedShareKey(key)) return { kind: "refused", reason: "unknown" };
  const share = await findShareByKey(db, key);
  if (!share) return { kind: "refused", reason: "unknown" };
  const state = shareState(share, now);
  if (state === "revoked" || state === "expired") return { kind: "refused", reason: state, share };
  const grant = decodeShareGrant(grantCookieValue);
  if (grant && grant.shareId === share.id && grant.grantVersion === share.grant_version) return { kind: "granted", share, grant };
  if (share.password_hash !== null) return { kind: "refused", reason: "password_required", share };
  if (state === "used_up") return { kind: "refused", reason: "used_up", share };
  return { kind: "admissible", share };
}

/** For every path but a page: the granted share, or a 401 that does not say why. */
export async function requireShareGrant(
  db: DatabaseHandle,
  key: string,
  grantCookieValue: string | undefined | null,
  now: Date,
): Promise<{ share: ShareRow; grant: ShareGrant }> {
  const access = await decideShareAccess(db, key, grantCookieValue, now);
  if (access.kind !== "granted") throw new AppError("UNAUTHENTICATED", "This share link is not open to you.");
  return access;
}

/**
 * Admits one browser to a link (after its password, if it has one, was checked by the caller):
 * counts the view against the limit atomically and logs it. Answers the grant cookie's value, or
 * a refusal when the last view was taken meanwhile.
 */
export async function admitShareVisit(
  db: DatabaseHandle,
  share: ShareRow,
  now: Date,
): Promise<{ kind: "admitted"; cookieValue: string; grant: ShareGrant } | { kind: "refused"; reason: "used_up" }> {
  if (!(await countShareVisit(db, share.id, now.toISOString()))) return { kind: "refused", reason: "used_up" };
  await recordShareAccess(db, { shareId: share.id, event: "visit" }, now);
  const { value, grant } = encodeShareGrant(share.id, share.grant_version, now);
  return { kind: "admitted", cookieValue: value, grant };
}
