import { type DatabaseHandle, getDatabaseKind } from "@/src/db/client";
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
}

function readThreshold(text: string | undefined): number {
  const value = Number(text);
  return text !== undefined && Number.isFinite(value) && value >= MATCH_THRESHOLD_RANGE.minimum && value <= MATCH_THRESHOLD_RANGE.maximum ? value : DEFAULT_MATCH_THRESHOLD;
}

export async function readFaceSettings(db: DatabaseHandle): Promise<FaceSettings> {
  const stored = await findSettings(db, [ENABLED_KEY, THRESHOLD_KEY, MEMBERS_SEE_PEOPLE_KEY]);
  return {
    enabled: stored.get(ENABLED_KEY) === "true",
    matchThreshold: readThreshold(stored.get(THRESHOLD_KEY)),
    membersSeePeople: stored.get(MEMBERS_SEE_PEOPLE_KEY) === "true",
  };
}

/**
 * "Still on?" inside a transaction that is about to store faces or queue detection, holding the
 * setting's row until it commits (PostgreSQL: FOR UPDATE), so turning people off, which writes that
 * row, waits for it and then deletes what it stored; or, if "off" committed first, reads false.
 * SQLite runs one write transaction at a time, so there the plain read is enough.
 */
export async function isStillEnabled(transaction: DatabaseHandle): Promise<boolean> {
  const row = await transaction
    .selectFrom("settings")
    .select("value")
    .where("key", "=", ENABLED_KEY)
    .$call((query) => (getDatabaseKind() === "postgres" ? query.forUpdate() : query))
    .executeTakeFirst();
  return row?.value === "true";
}

export async function writeFaceSettings(db: DatabaseHandle, change: Partial<FaceSettings>): Promise<void> {
  if (change.enabled !== undefined) await upsertSetting(db, ENABLED_KEY, String(change.enabled));
  if (change.matchThreshold !== undefined) await upsertSetting(db, THRESHOLD_KEY, String(change.matchThreshold));
  if (change.membersSeePeople !== undefined) await upsertSetting(db, MEMBERS_SEE_PEOPLE_KEY, String(change.membersSeePeople));
}
