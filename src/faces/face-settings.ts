import { createHash } from "node:crypto";
import type { DatabaseHandle } from "@/src/db/client";
import { findSettings, upsertSetting } from "@/src/settings/settings.repository";
import { DEFAULT_MATCH_THRESHOLD } from "./face-clustering";
import { MATCH_THRESHOLD_RANGE } from "./face-limits";

// The people feature's site settings, kept by faces itself (not in the site settings form's
// schema): turning detection off must delete every descriptor in the same transaction, which only
// this domain knows how to do. Read afresh each time (one indexed read): the job checks "still on?"
// inside the transaction that stores faces, so a photo finished after "off" stores nothing.

const ENABLED_KEY = "faces.enabled";
const THRESHOLD_KEY = "faces.match_threshold";
const MEMBERS_SEE_PEOPLE_KEY = "faces.members_see_people";
const CONSENT_TEXT_KEY = "faces.consent_text";

/**
 * What each user is asked before their photos are looked at, while the admin has written nothing
 * of their own: what is done, where, who sees it, and how to take it back.
 */
export const DEFAULT_CONSENT_TEXT =
  "This site can find faces in your photos and group them into people, so you can name them and find everyone in your library. " +
  "Faces are found on this server and never sent anywhere. Only you see your people unless an admin lets members see named people in photos they may already see; " +
  "share links, feeds and link previews never show them. You can change your mind at any time: saying no deletes the faces found in your photos.";

export interface FaceSettings {
  /** Off by default: nothing is computed or stored until an admin turns it on. */
  enabled: boolean;
  /** The largest distance at which a face joins a person (see face-clustering.ts for the measurement). */
  matchThreshold: number;
  /**
   * Off by default: each owner sees only their own people. On: every signed-in user also sees the
   * named people of others in the photos they may list (people-access.ts), never to edit them.
   */
  membersSeePeople: boolean;
  /** What each user is asked before their photos are looked at (face-consent.service.ts); the admin's words, or DEFAULT_CONSENT_TEXT. */
  consentText: string;
}

/**
 * Which words a user agreed to (face_consents.text_sha256): the SHA-256 of the text they were
 * shown, in hex. The words themselves, not a counter the admin's form bumps, so that whatever
 * changes them (the admin's edit, or a release changing DEFAULT_CONSENT_TEXT) asks again, and
 * nothing but a change to them does (saving the form unchanged, or putting back the very words
 * someone agreed to, asks nobody again).
 */
export function consentTextVersion(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

function readThreshold(text: string | undefined): number {
  const value = Number(text);
  return text !== undefined && Number.isFinite(value) && value >= MATCH_THRESHOLD_RANGE.minimum && value <= MATCH_THRESHOLD_RANGE.maximum ? value : DEFAULT_MATCH_THRESHOLD;
}

export async function readFaceSettings(db: DatabaseHandle): Promise<FaceSettings> {
  const stored = await findSettings(db, [ENABLED_KEY, THRESHOLD_KEY, MEMBERS_SEE_PEOPLE_KEY, CONSENT_TEXT_KEY]);
  return {
    enabled: stored.get(ENABLED_KEY) === "true",
    matchThreshold: readThreshold(stored.get(THRESHOLD_KEY)),
    membersSeePeople: stored.get(MEMBERS_SEE_PEOPLE_KEY) === "true",
    consentText: stored.get(CONSENT_TEXT_KEY)?.trim() || DEFAULT_CONSENT_TEXT,
  };
}

/**
 * "Still on?" inside a transaction that is about to store faces or queue detection, holding the
 * setting's row until it commits (PostgreSQL: FOR UPDATE), so turning people off, which writes that
 * row, waits for it and then deletes what it stored; or, if "off" committed first, reads false.
 * SQLite runs one write transaction at a time, so there the plain read is enough.
 */
/**
 * Whether this handle's database takes row locks (PostgreSQL), from the handle itself: a test's
 * own database may differ from the app's. Of the two, only PostgreSQL runs DDL in transactions.
 */
export function takesRowLocks(db: DatabaseHandle): boolean {
  return db.getExecutor().adapter.supportsTransactionalDdl;
}

export async function isStillEnabled(transaction: DatabaseHandle): Promise<boolean> {
  const row = await transaction
    .selectFrom("settings")
    .select("value")
    .where("key", "=", ENABLED_KEY)
    .$call((query) => (takesRowLocks(transaction) ? query.forUpdate() : query))
    .executeTakeFirst();
  return row?.value === "true";
}

export async function writeFaceSettings(db: DatabaseHandle, change: Partial<FaceSettings>): Promise<void> {
  if (change.enabled !== undefined) await upsertSetting(db, ENABLED_KEY, String(change.enabled));
  if (change.matchThreshold !== undefined) await upsertSetting(db, THRESHOLD_KEY, String(change.matchThreshold));
  if (change.membersSeePeople !== undefined) await upsertSetting(db, MEMBERS_SEE_PEOPLE_KEY, String(change.membersSeePeople));
  // Empty: back to the default words.
  if (change.consentText !== undefined) await upsertSetting(db, CONSENT_TEXT_KEY, change.consentText.trim());
}
