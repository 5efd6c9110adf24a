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
import { consentTextVersion, type FaceSettings, isStillEnabled, readFaceSettings } from "./face-settings";
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
// - A "yes" is to the words shown (face_consents.text_sha256, consentTextVersion). When the admin
//   changes them, an earlier yes no longer counts: the user is asked again (answer null,
//   textChanged), nothing more of theirs is queued, looked at or stored until they agree to the new
//   words, and what was found before stays, as for a user not asked yet, until they say no. A "no"
//   stays a no whatever the words: nobody who refused is asked again by a new text.
//
// Only the caller's own answer can be read or written: no route names a user.

export type FaceConsentAnswer = "agreed" | "declined" | null;

export interface FaceConsentView {
  /** Whether people is on for the site. */
  enabled: boolean;
  /** What the user is asked: the admin's words, or the default. */
  text: string;
  /** Which words `text` is (consentTextVersion): an answer sent with it is refused if they changed meanwhile. */
  textVersion: string;
  /** Null: not asked yet, or agreed only to earlier words; either counts as no. */
  answer: FaceConsentAnswer;
  /** The user agreed to earlier words, which the admin has changed since: asked again. */
  textChanged: boolean;
}

function userOf(viewer: Viewer): SessionUser {
  const user = signedInUser(viewer);
  if (!user) throw new AppError("UNAUTHENTICATED", "Sign in to answer.");
  return user;
}

type ConsentRow = { agreed: number; text_sha256: string | null } | undefined;

/** A stored answer read against the words asked now: a yes to other words is no answer yet. */
function answerOf(row: ConsentRow, textVersion: string): FaceConsentAnswer {
  if (!row) return null;
  if (row.agreed !== 1) return "declined";
  return row.text_sha256 === textVersion ? "agreed" : null;
}

function viewOf(settings: FaceSettings, row: ConsentRow): FaceConsentView {
  const textVersion = consentTextVersion(settings.consentText);
  const answer = answerOf(row, textVersion);
  return { enabled: settings.enabled, text: settings.consentText, textVersion, answer, textChanged: answer === null && row?.agreed === 1 };
}

export async function getFaceConsent(db: DatabaseHandle, viewer: Viewer): Promise<FaceConsentView> {
  const user = userOf(viewer);
  const [settings, row] = await Promise.all([readFaceSettings(db), findFaceConsent(db, user.id)]);
  return viewOf(settings, row);
}

/**
 * Whether the signed-in user should be asked where their photos arrive (the library, the upload
 * page), not only on /people: people is on and they have not answered the words asked now, and
 * have not put the notice off for these words (`putOffFor`: the version their browser remembers,
 * face-consent-later.ts). Quiet for anyone who answered and when people is off for the site.
 */
export async function shouldAskFaceConsent(db: DatabaseHandle, viewer: Viewer, putOffFor?: string): Promise<FaceConsentView | null> {
  if (!signedInUser(viewer)) return null;
  const consent = await getFaceConsent(db, viewer);
  return consent.enabled && consent.answer === null && consent.textVersion !== putOffFor ? consent : null;
}

/**
 * The caller's answer to the words asked now, in one transaction with what it sets off: agreed
 * queues a backfill when people is on; no deletes what detection found in their photos. With
 * `textVersion` (the words the caller read), an answer to words changed since is refused (409)
 * rather than counted for words they never saw. Audited; answers the new state.
 */
export async function answerFaceConsent(db: DatabaseHandle, viewer: Viewer, agreed: boolean, textVersion?: string): Promise<FaceConsentView> {
  const user = userOf(viewer);
  const queued = await inTransaction(db, async (transaction) => {
    const settings = await readFaceSettings(transaction);
    const currentVersion = consentTextVersion(settings.consentText);
    if (textVersion !== undefined && textVersion !== currentVersion) throw new AppError("CONFLICT", "The words you were asked have changed since you read them: read them again and answer.");
    const before = answerOf(await findFaceConsent(transaction, user.id), currentVersion);
    const now = new Date().toISOString();
    await upsertFaceConsent(transaction, user.id, agreed, currentVersion, now);
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
      { actorId: user.id, action: "faces.consent", targetId: user.id, targetType: "user", details: { before: { answer: before }, after: { answer: agreed ? "agreed" : "declined", textVersion: currentVersion }, ...(deletedFaces ? { deletedFaces } : {}) } },
      now,
    );
    return queue;
  });
  if (queued) notifyJobQueued();
  if (!agreed) announcePeopleChanged();
  return getFaceConsent(db, viewer);
}
