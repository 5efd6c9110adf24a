import "server-only";
import type { SessionUser } from "@/src/access/viewer";
import { insertAuditEntry } from "@/src/audit/audit.repository";
import type { DatabaseHandle } from "@/src/db/client";
import { inTransaction } from "@/src/db/transaction";
import { AppError } from "@/src/errors/app-error";
import { deleteJobsOfKinds, insertJob } from "@/src/jobs/jobs.repository";
import { notifyJobQueued } from "@/src/jobs/worker";
import { BACKFILL_PRIORITY, DETECT_FACES_JOB, FACES_BACKFILL_JOB } from "./face-job-kinds";
import { consentTextVersion, type FaceSettings, isStillEnabled, readFaceSettings, writeFaceSettings } from "./face-settings";
import { clearStaleCovers, countScanProgress, deleteDetectedFaces, deleteEmptyUnnamedPeople } from "./faces.repository";
import { announcePeopleChanged } from "./people-changes";
import type { UpdateFaceSettingsInput } from "./people.schemas";

export interface FaceSettingsView {
  settings: FaceSettings;
  /** Photos detection has looked at, of the ready photos outside the trash, and the faces found. */
  progress: { scanned: number; total: number; faces: number };
}

function assertAdmin(actor: SessionUser): void {
  if (actor.role !== "admin") throw new AppError("FORBIDDEN", "Only admins can change face detection.");
}

export async function getFaceSettingsView(db: DatabaseHandle): Promise<FaceSettingsView> {
  const settings = await readFaceSettings(db);
  return { settings, progress: await countScanProgress(db, consentTextVersion(settings.consentText)) };
}

/**
 * Turns people on or off, or changes the match threshold (admins). On: the existing photos are
 * queued for detection by a backfill, in batches, resumable (what was looked at is recorded). Off,
 * in one transaction: every detected face and so every descriptor is deleted, with the record of
 * what was looked at, the queued detection and backfill jobs, and the people left with nothing
 * (named people and faces drawn by hand are the owners' own work and stay). A detection running at
 * that moment checks "still on?" inside its own transaction, so it stores nothing afterwards.
 */
export async function updateFaceSettings(db: DatabaseHandle, actor: SessionUser, input: UpdateFaceSettingsInput): Promise<FaceSettingsView> {
  assertAdmin(actor);
  const now = new Date().toISOString();
  const turnedOn = await inTransaction(db, async (transaction) => {
    // New words: hold the "on" row first, as storing faces does before it reads whose consent counts
    // (face-storing.ts), so faces are never stored on the strength of words already replaced.
    if (input.consentText !== undefined) await isStillEnabled(transaction);
    const before = await readFaceSettings(transaction);
    const after = { ...before, ...input };
    await writeFaceSettings(transaction, input);
    let deletedFaces = 0;
    if (before.enabled && !after.enabled) {
      await deleteJobsOfKinds(transaction, [DETECT_FACES_JOB, FACES_BACKFILL_JOB]);
      deletedFaces = await deleteDetectedFaces(transaction);
      await clearStaleCovers(transaction);
      await deleteEmptyUnnamedPeople(transaction);
    }
    const isTurnedOn = !before.enabled && after.enabled;
    if (isTurnedOn) await insertJob(transaction, { kind: FACES_BACKFILL_JOB, photoId: null, priority: BACKFILL_PRIORITY }, now);
    await insertAuditEntry(transaction, { actorId: actor.id, action: "settings.faces", targetId: null, targetType: "settings", details: { before, after, ...(deletedFaces ? { deletedFaces } : {}) } }, now);
    return isTurnedOn;
  });
  if (turnedOn) notifyJobQueued();
  announcePeopleChanged();
  return getFaceSettingsView(db);
}
