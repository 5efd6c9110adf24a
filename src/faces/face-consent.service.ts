import "server-only";
import { type SessionUser, signedInUser, type Viewer } from "@/src/access/viewer";
import { insertAuditEntry } from "@/src/audit/audit.repository";
import type { DatabaseHandle } from "@/src/db/client";
import { inTransaction } from "@/src/db/transaction";
import { AppError } from "@/src/errors/app-error";
import { insertJob } from "@/src/jobs/jobs.repository";
import { notifyJobQueued } from "@/src/jobs/worker";
import { deleteOwnerDetectedFaces, findFaceConsent, hasQueuedJob, upsertFaceConsent } from "./face-consent.repository";
import { BACKFILL_PRIORITY, FACES_BACKFILL_JOB } from "./face-job-kinds";
import { isStillEnabled, readFaceSettings } from "./face-settings";
import { clearStaleCovers, deleteEmptyUnnamedPeople } from "./faces.repository";
import { announcePeopleChanged } from "./people-changes";
import { refreshStaleCentroids } from "./person-centroids";

// Each user's consent to people (issue 32: "a site setting (off by default) and per-user consent
// text"). The admin turns people on and writes what users are asked (face settings); each user
// answers for themselves, once, on /people (and may change their mind there at any time):
//
// - Not asked yet (no row, every existing user when people is turned on) counts as no: nothing of
//   theirs is queued, looked at or backfilled until they agree.
// - Agreeing queues a backfill (when people is on), which looks at their photos like anybody's.
// - Saying no, first or later, deletes every face detection found in their photos with its
//   descriptor, their people's centroids and what is queued. Faces they drew by hand and people
//   they named stay: those are their own work, not something computed from their face, exactly
//   as the site's off switch keeps them.
// - The site's off switch wins: off, nothing is looked at whatever anyone answered; answers are
//   kept, so turning people on again looks at the photos of those who agreed.
//
// Only the caller's own answer can be read or written: no route names a user.

export type FaceConsentAnswer = "agreed" | "declined" | null;

export interface FaceConsentView {
  /** Whether people is on for the site. */
  enabled: boolean;
  /** What the user is asked: the admin's words, or the default. */
  text: string;
  /** Null: not asked yet, which counts as no. */
  answer: FaceConsentAnswer;
}

function userOf(viewer: Viewer): SessionUser {
  const user = signedInUser(viewer);
  if (!user) throw new AppError("UNAUTHENTICATED", "Sign in to answer.");
  return user;
}

const answerOf = (row: { agreed: number } | undefined): FaceConsentAnswer => (row ? (row.agreed === 1 ? "agreed" : "declined") : null);

export async function getFaceConsent(db: DatabaseHandle, viewer: Viewer): Promise<FaceConsentView> {
  const user = userOf(viewer);
  const [settings, row] = await Promise.all([readFaceSettings(db), findFaceConsent(db, user.id)]);
  return { enabled: settings.enabled, text: settings.consentText, answer: answerOf(row) };
}

/**
 * The caller's answer, in one transaction with what it sets off: agreed queues a backfill when
 * people is on; no deletes what detection found in their photos. Audited; answers the new state.
 */
export async function answerFaceConsent(db: DatabaseHandle, viewer: Viewer, agreed: boolean): Promise<FaceConsentView> {
  const user = userOf(viewer);
  const queued = await inTransaction(db, async (transaction) => {
    const before = answerOf(await findFaceConsent(transaction, user.id));
    const now = new Date().toISOString();
    await upsertFaceConsent(transaction, user.id, agreed, now);
    let deletedFaces = 0;
    if (!agreed) {
      deletedFaces = await deleteOwnerDetectedFaces(transaction, user.id);
      await clearStaleCovers(transaction);
      await deleteEmptyUnnamedPeople(transaction);
      await refreshStaleCentroids(transaction, user.id);
    }
    // One backfill walks every unscanned photo of everyone who agreed: a second queued one adds nothing.
    const queue = agreed && (await isStillEnabled(transaction)) && !(await hasQueuedJob(transaction, FACES_BACKFILL_JOB));
    if (queue) await insertJob(transaction, { kind: FACES_BACKFILL_JOB, photoId: null, priority: BACKFILL_PRIORITY }, now);
    await insertAuditEntry(
      transaction,
      { actorId: user.id, action: "faces.consent", targetId: user.id, targetType: "user", details: { before: { answer: before }, after: { answer: agreed ? "agreed" : "declined" }, ...(deletedFaces ? { deletedFaces } : {}) } },
      now,
    );
    return queue;
  });
  if (queued) notifyJobQueued();
  if (!agreed) announcePeopleChanged();
  return getFaceConsent(db, viewer);
}
