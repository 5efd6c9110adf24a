import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { hasRole } from "@/src/access/roles";
import type { SessionUser } from "@/src/access/viewer";
import { insertAuditEntry } from "@/src/audit/audit.repository";
import type { DatabaseHandle } from "@/src/db/client";
import type { PhotoVariantRow, ShareRow, ShareVisitorRow } from "@/src/db/database";
import { inTransaction } from "@/src/db/transaction";
import { AppError } from "@/src/errors/app-error";
import { photoAccessibleName } from "@/src/photos/photo-accessible-name";
import { toMediaUrl } from "@/src/photos/photo-publication";
import { listVariants } from "@/src/photos/photos.repository";
import { findUserById } from "@/src/users/users.repository";
import { MAX_PICKS_PER_SHARE, MAX_VISITORS_PER_GRANT, MAX_VISITORS_PER_SHARE } from "./proofing.types";
import type { FeedbackResponse, SelectionPhoto, SelectionsResponse, SelectionVisitor, VisitorResponse, VisitorState } from "./proofing-api.schemas";
import { type SelectionCsvRow, toLightroomFilter, toSelectionsCsv } from "./proofing-export";
import {
  countSharePicks,
  countShareVisitors,
  countVisitorPicks,
  deleteShareFeedback,
  findShareFeedback,
  findShareVisitorByTokenHash,
  insertShareVisitor,
  listNewSelections,
  listShareFeedbackForOwner,
  listShareVisitors,
  listVisitorFeedback,
  markShareSelectionsSeen,
  markShareVisitorSent,
  type NewSelectionRow,
  type OwnerFeedbackRow,
  setShareSelectionLock,
  touchShareVisitor,
  upsertShareFeedback,
} from "./proofing.repository";
import { recordShareAccess } from "./share-access-log.repository";
import { findSharedPhoto } from "./share-photos.repository";
import { findShareById, touchShareVisit } from "./shares.repository";

/**
 * Proofing: a share link's visitors give a name, pick photos, comment, and send their selection;
 * the owner reads, exports and locks them.
 *
 * A visitor is known by a random token in the `cs_share_visitor` cookie (Path=/s/[key]); only its
 * SHA-256 is stored, and it is looked up together with the share's id, so a token of another link
 * (or of a visitor that was deleted) is nobody. Every visitor function is called after the share
 * gate (withShareGrant) admitted the browser; they take that share, never a key.
 */

export const SHARE_VISITOR_COOKIE = "cs_share_visitor";
// As long as a grant lasts: a client coming back a month later still finds their picks.
const VISITOR_COOKIE_MAX_AGE_SECONDS = 60 * 60 * 24 * 90;

const NO_PICKS = "This link does not invite picks.";
const NO_VISITOR = "Tell us your name first.";
const LOCKED = "The selection is locked";

export function hashVisitorToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** The Set-Cookie header that names this browser as a visitor of the link with this key. */
export function visitorCookieHeader(key: string, token: string, isSecure: boolean): string {
  return [`${SHARE_VISITOR_COOKIE}=${token}`, `Path=/s/${key}`, `Max-Age=${VISITOR_COOKIE_MAX_AGE_SECONDS}`, "HttpOnly", "SameSite=Lax", ...(isSecure ? ["Secure"] : [])].join("; ");
}

function requirePicksAllowed(share: ShareRow): void {
  if (share.allow_picks !== 1) throw new AppError("NOT_FOUND", NO_PICKS);
}

function requireUnlocked(share: ShareRow): void {
  if (share.selection_locked_at !== null) throw new AppError("CONFLICT", `${LOCKED}: your picks can no longer be changed.`);
}

async function findVisitor(db: DatabaseHandle, share: ShareRow, token: string | undefined): Promise<ShareVisitorRow | null> {
  // A token is 32 random bytes in base64url (43 characters); anything else cannot be one.
  if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  return (await findShareVisitorByTokenHash(db, share.id, hashVisitorToken(token))) ?? null;
}

async function requireVisitor(db: DatabaseHandle, share: ShareRow, token: string | undefined): Promise<ShareVisitorRow> {
  const visitor = await findVisitor(db, share, token);
  if (!visitor) throw new AppError("FORBIDDEN", NO_VISITOR);
  return visitor;
}

async function visitorState(db: DatabaseHandle, visitor: ShareVisitorRow): Promise<VisitorState> {
  const feedback = await listVisitorFeedback(db, visitor.id);
  return {
    name: visitor.name,
    email: visitor.email,
    feedback: feedback.map((row) => ({ photoId: row.photoId, picked: row.isPicked === 1, comment: row.comment })),
    pickCount: feedback.filter((row) => row.isPicked === 1).length,
    sentAt: visitor.sent_at,
  };
}

async function visitorResponse(db: DatabaseHandle, share: ShareRow, visitor: ShareVisitorRow | null): Promise<VisitorResponse> {
  const owner = await findUserById(db, share.owner_id);
  return {
    visitor: visitor ? await visitorState(db, visitor) : null,
    pickLimit: share.pick_limit,
    locked: share.selection_locked_at !== null,
    ownerName: owner?.name ?? "the photographer",
  };
}

/**
 * GET /s/[key]/api/visitor: who this browser is on this link, with their own picks and comments.
 * A browser that has not given a name yet gets `visitor: null` (200, not 404), with the link's
 * limit and lock, so a page can draw its bar without a failed request.
 */
export async function getShareVisitor(db: DatabaseHandle, share: ShareRow, token: string | undefined): Promise<VisitorResponse> {
  requirePicksAllowed(share);
  return visitorResponse(db, share, await findVisitor(db, share, token));
}

/**
 * POST /s/[key]/api/visitor: a new visitor with this name; answers the cookie token to set (always a
 * new one). Capped per link and per admitted browser (SECURITY.md 63): each visitor brings its own
 * pick allowance, so one browser naming itself over and over must stop somewhere. The share's row is
 * written first, in the transaction, so concurrent namings on one link count one after the other.
 */
export async function createShareVisitor(
  db: DatabaseHandle,
  share: ShareRow,
  input: { name: string; email?: string | null },
  now: Date,
  // The admitted browser's grant (its visit id); null only where no browser asks (scripts, the
  // query-plan test), and then only the link's cap applies.
  visitId: string | null = null,
): Promise<{ token: string; response: VisitorResponse }> {
  requirePicksAllowed(share);
  const token = randomBytes(32).toString("base64url");
  const at = now.toISOString();
  const visitor: ShareVisitorRow = {
    id: crypto.randomUUID(),
    share_id: share.id,
    token_hash: hashVisitorToken(token),
    name: input.name,
    email: input.email ?? null,
    visit_id: visitId,
    sent_at: null,
    owner_seen_at: null,
    created_at: at,
    updated_at: at,
  };
  await inTransaction(db, async (transaction) => {
    // On PostgreSQL this locks the share's row until commit (SQLite runs one writer at a time).
    await touchShareVisit(transaction, share.id, at);
    // No visit id is empty, so without one no visitor counts as this browser's.
    const visitors = await countShareVisitors(transaction, share.id, visitId ?? "");
    if (visitors.onShare >= MAX_VISITORS_PER_SHARE) {
      throw new AppError("CONFLICT", `This link has its ${MAX_VISITORS_PER_SHARE} visitors already. Ask the person who shared it to add you.`);
    }
    if (visitId !== null && visitors.ofVisit >= MAX_VISITORS_PER_GRANT) {
      throw new AppError("CONFLICT", `This browser has named ${MAX_VISITORS_PER_GRANT} visitors on this link already: go on as one of them.`);
    }
    await insertShareVisitor(transaction, visitor);
  });
  return { token, response: await visitorResponse(db, share, visitor) };
}

/**
 * PUT /s/[key]/api/feedback/[photoId]: the visitor's pick and comment on one photo of the share.
 * 404 for a photo the share does not open; 409 past the pick limit or after the owner locked.
 * The count and the write are one transaction that first writes the visitor's row, so one
 * visitor's concurrent picks are serialised and cannot both take the last free place.
 */
export async function setShareFeedback(
  db: DatabaseHandle,
  share: ShareRow,
  token: string | undefined,
  photoId: string,
  input: { picked?: boolean; comment?: string | null },
  now: Date,
): Promise<FeedbackResponse> {
  requirePicksAllowed(share);
  const visitor = await requireVisitor(db, share, token);
  requireUnlocked(share);
  if (!(await findSharedPhoto(db, share.id, photoId))) throw new AppError("NOT_FOUND", "That photo is not in this share.");
  const at = now.toISOString();
  return inTransaction(db, async (transaction) => {
    // Written first: on PostgreSQL this locks the visitor's row until commit, so two tabs of one
    // visitor pick one after the other and cannot both take the last free place.
    await touchShareVisitor(transaction, visitor.id, at);
    const existing = await findShareFeedback(transaction, visitor.id, photoId);
    const wasPicked = existing?.is_picked === 1;
    const picked = input.picked ?? wasPicked;
    const comment = input.comment === undefined ? (existing?.comment ?? null) : input.comment || null;
    let pickCount = await countVisitorPicks(transaction, visitor.id);
    if (picked && !wasPicked) {
      if (share.pick_limit !== null && pickCount >= share.pick_limit) {
        throw new AppError("CONFLICT", `You have picked ${pickCount} of ${share.pick_limit}: unpick a photo to pick another.`);
      }
      // Every visitor's picks count toward the link's bound too (SECURITY.md 63). Written after the
      // visitor's row (locked above), so every transaction takes the two locks in the same order.
      await touchShareVisit(transaction, share.id, at);
      if ((await countSharePicks(transaction, share.id)) >= MAX_PICKS_PER_SHARE) {
        throw new AppError("CONFLICT", `This link's visitors have picked ${MAX_PICKS_PER_SHARE} photos between them, as many as it takes: unpick one to pick another.`);
      }
      pickCount += 1;
    } else if (!picked && wasPicked) {
      pickCount -= 1;
    }
    if (!picked && comment === null) await deleteShareFeedback(transaction, visitor.id, photoId);
    else await upsertShareFeedback(transaction, { visitor_id: visitor.id, photo_id: photoId, share_id: share.id, is_picked: picked ? 1 : 0, comment, updated_at: at });
    return { feedback: { photoId, picked, comment }, pickCount, pickLimit: share.pick_limit };
  });
}

/** POST /s/[key]/api/selection: "Send my selection" (again, after changes, until the owner locks). */
export async function sendShareSelection(db: DatabaseHandle, share: ShareRow, token: string | undefined, now: Date): Promise<VisitorResponse> {
  requirePicksAllowed(share);
  const visitor = await requireVisitor(db, share, token);
  requireUnlocked(share);
  const state = await visitorState(db, visitor);
  if (state.feedback.length === 0) throw new AppError("CONFLICT", "Pick or comment on a photo before sending.");
  await inTransaction(db, async (transaction) => {
    await markShareVisitorSent(transaction, visitor.id, now.toISOString());
    await recordShareAccess(transaction, { shareId: share.id, event: "selection_sent" }, now);
  });
  return visitorResponse(db, share, { ...visitor, sent_at: now.toISOString() });
}

// The owner's side: the share's owner or an admin; anyone else gets the same 404 as a missing share.

async function getOwnedShare(db: DatabaseHandle, user: SessionUser, shareId: string): Promise<ShareRow> {
  const share = await findShareById(db, shareId);
  if (!share || !hasRole(user.role, "editor") || (share.owner_id !== user.id && user.role !== "admin")) {
    throw new AppError("NOT_FOUND", "No share has that id.");
  }
  return share;
}

/** The smallest JPEG at least 400 px wide (else the largest there is), for the owner's thumbnails. */
function thumbnailUrl(row: OwnerFeedbackRow, variants: PhotoVariantRow[]): string | null {
  const jpegs = variants.filter((variant) => variant.photo_id === row.photoId && variant.format === "jpeg").sort((a, b) => a.width - b.width);
  const variant = jpegs.find((each) => each.width >= 400) ?? jpegs.at(-1);
  return variant ? toMediaUrl(row.publicationKey, variant.storage_key) : null;
}

function toSelectionPhoto(row: OwnerFeedbackRow, variants: PhotoVariantRow[]): SelectionPhoto {
  return {
    photoId: row.photoId,
    title: row.title,
    // The owner's side: the file name tells untitled picks apart (a visitor never sees it).
    name: photoAccessibleName({ altText: row.altText, title: row.title, takenAt: row.takenAt }, { audience: "owner", fileName: row.originalName }),
    originalName: row.originalName,
    thumbnailUrl: thumbnailUrl(row, variants),
    comment: row.comment,
  };
}

function isNewSelection(visitor: ShareVisitorRow): boolean {
  return visitor.sent_at !== null && (visitor.owner_seen_at === null || visitor.owner_seen_at < visitor.sent_at);
}

/** GET /api/shares/[id]/selections: each visitor with their picks and comments. */
export async function listShareSelections(db: DatabaseHandle, user: SessionUser, shareId: string): Promise<SelectionsResponse> {
  const share = await getOwnedShare(db, user, shareId);
  const [visitors, feedback] = await Promise.all([listShareVisitors(db, share.id), listShareFeedbackForOwner(db, share.id)]);
  const variants = await listVariants(db, [...new Set(feedback.map((row) => row.photoId))]);
  const result: SelectionVisitor[] = visitors.map((visitor) => {
    const own = feedback.filter((row) => row.visitorId === visitor.id);
    return {
      id: visitor.id,
      name: visitor.name,
      email: visitor.email,
      sentAt: visitor.sent_at,
      isNew: isNewSelection(visitor),
      picks: own.filter((row) => row.isPicked === 1).map((row) => toSelectionPhoto(row, variants)),
      comments: own.filter((row) => row.isPicked !== 1 && row.comment !== null).map((row) => toSelectionPhoto(row, variants)),
    };
  });
  return {
    share: { id: share.id, title: share.title, allowPicks: share.allow_picks === 1, pickLimit: share.pick_limit, lockedAt: share.selection_locked_at },
    visitors: result,
  };
}

/** Opening the selections page: every selection sent so far counts as seen (the dashboard stops showing it). */
export async function markShareSelectionsSeenByOwner(db: DatabaseHandle, user: SessionUser, shareId: string, now: Date): Promise<void> {
  const share = await getOwnedShare(db, user, shareId);
  await markShareSelectionsSeen(db, share.id, now.toISOString());
}

/** GET /api/shares/[id]/selections.csv */
export async function exportShareSelectionsCsv(db: DatabaseHandle, user: SessionUser, shareId: string): Promise<{ title: string; csv: string }> {
  const share = await getOwnedShare(db, user, shareId);
  const [visitors, feedback] = await Promise.all([listShareVisitors(db, share.id), listShareFeedbackForOwner(db, share.id)]);
  const rows: SelectionCsvRow[] = [];
  for (const visitor of visitors) {
    for (const row of feedback.filter((each) => each.visitorId === visitor.id)) {
      rows.push({
        visitorName: visitor.name,
        visitorEmail: visitor.email,
        photoTitle: row.title,
        originalName: row.originalName,
        picked: row.isPicked === 1,
        comment: row.comment,
        sentAt: visitor.sent_at,
      });
    }
  }
  return { title: share.title, csv: toSelectionsCsv(rows) };
}

/** GET /api/shares/[id]/selections.txt: the picked photos' file names for Lightroom's filter, one visitor's or everyone's. */
export async function exportShareSelectionsLightroom(
  db: DatabaseHandle,
  user: SessionUser,
  shareId: string,
  visitorId: string | undefined,
): Promise<{ title: string; text: string }> {
  const share = await getOwnedShare(db, user, shareId);
  if (visitorId !== undefined && !(await listShareVisitors(db, share.id)).some((visitor) => visitor.id === visitorId)) {
    throw new AppError("NOT_FOUND", "No visitor of this share has that id.");
  }
  const feedback = await listShareFeedbackForOwner(db, share.id);
  const picked = feedback.filter((row) => row.isPicked === 1 && (visitorId === undefined || row.visitorId === visitorId));
  return { title: share.title, text: `${toLightroomFilter(picked.map((row) => row.originalName))}\n` };
}

/** PUT / DELETE /api/shares/[id]/selection-lock: visitors can no longer change (or send) their picks, or can again. Audited. */
export async function setShareSelectionLocked(db: DatabaseHandle, user: SessionUser, shareId: string, locked: boolean, now: Date): Promise<{ lockedAt: string | null }> {
  return inTransaction(db, async (transaction) => {
    const share = await getOwnedShare(transaction, user, shareId);
    const before = share.selection_locked_at;
    // Locking a locked selection keeps its first time; nothing changes, nothing is written.
    const after = locked ? (before ?? now.toISOString()) : null;
    if (after === before) return { lockedAt: before };
    await setShareSelectionLock(transaction, share.id, after, now.toISOString());
    await insertAuditEntry(
      transaction,
      {
        actorId: user.id,
        action: locked ? "share.selection-lock" : "share.selection-unlock",
        targetId: share.id,
        targetType: "share",
        details: { before: { selectionLockedAt: before }, after: { selectionLockedAt: after } },
      },
      now.toISOString(),
    );
    return { lockedAt: after };
  });
}

/** The dashboard's "New selections": sent since the owner last looked, on the user's shares (an admin: every share). */
export function listNewSelectionsForUser(db: DatabaseHandle, user: SessionUser, limit = 20): Promise<NewSelectionRow[]> {
  if (!hasRole(user.role, "editor")) return Promise.resolve([]);
  return listNewSelections(db, user.role === "admin" ? null : user.id, limit);
}
