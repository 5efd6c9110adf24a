import type { DatabaseHandle } from "@/src/db/client";
import { inTransaction } from "@/src/db/transaction";
import { assignFacesToPeople } from "./face-clustering";
import { descriptorToBytes } from "./face-descriptor";
import type { DetectedFace } from "./face-detector";
import { hasOwnerAgreed } from "./face-consent.repository";
import { consentTextVersion, isStillEnabled, readFaceSettings } from "./face-settings";
import {
  clearStaleCovers,
  deleteEmptyUnnamedPeople,
  insertFaces,
  insertPerson,
  type NewFace,
  upsertFaceScan,
} from "./faces.repository";
import { announcePeopleChanged } from "./people-changes";
import { readCentroids, refreshStaleCentroids } from "./person-centroids";

export interface DetectionResult {
  photoId: string;
  ownerId: string;
  /** The pixels detection looked at, to turn boxes into fractions of the photo. */
  size: { width: number; height: number };
  faces: DetectedFace[];
  isCapped: boolean;
}

function clamp(value: number): number {
  return Math.min(1, Math.max(0, value));
}

/** The box in fractions (0-1) of the photo, cut to its edges. */
export function toFractionBox(box: DetectedFace["box"], size: { width: number; height: number }) {
  const left = clamp(box.left / size.width);
  const top = clamp(box.top / size.height);
  return { left, top, width: clamp((box.left + box.width) / size.width) - left, height: clamp((box.top + box.height) / size.height) - top };
}

/**
 * Stores one photo's detected faces, each placed with a person of the photo's owner (or a new,
 * unnamed one), and records the photo as looked at, in one transaction: nothing is half stored.
 * Stores nothing when people were turned off meanwhile (checked inside the transaction with the
 * setting's row held, so "off" and its deletion are never overtaken: isStillEnabled) or the photo
 * went away. Faces found before in this photo (a turned photo is looked at again) are replaced;
 * faces drawn by hand stay. Answers how many faces were stored.
 */
export async function storeDetectedFaces(db: DatabaseHandle, result: DetectionResult): Promise<number> {
  const nothing = { stored: 0, changed: [] as string[] };
  const { stored, changed } = await inTransaction(db, async (transaction) => {
    if (!(await isStillEnabled(transaction))) return nothing;
    // Read after the "still on?" row is held: changing the consent text holds it too (face-settings.service.ts).
    const { matchThreshold, consentText } = await readFaceSettings(transaction);
    // The owner said no meanwhile, or agreed only to words since changed (face-consent.service.ts): the same rule as "off", for one owner.
    if (!(await hasOwnerAgreed(transaction, result.ownerId, consentTextVersion(consentText)))) return nothing;
    const photo = await transaction.selectFrom("photos").select("id").where("id", "=", result.photoId).where("trashed_at", "is", null).executeTakeFirst();
    if (!photo) return nothing;
    const now = new Date().toISOString();
    await transaction.deleteFrom("faces").where("photo_id", "=", result.photoId).where("source", "=", "detected").execute();
    // The faces just taken away (a photo looked at again) leave their people's centroids first.
    const left = await refreshStaleCentroids(transaction, result.ownerId);
    const decisions = assignFacesToPeople(
      result.faces.map((face) => face.descriptor),
      await readCentroids(transaction, result.ownerId),
      matchThreshold,
    );
    const rows: NewFace[] = [];
    const newPeople: Array<{ id: string; faceId: string }> = [];
    result.faces.forEach((face, index) => {
      const faceId = crypto.randomUUID();
      let personId = decisions[index].personId;
      if (!personId) {
        personId = crypto.randomUUID();
        newPeople.push({ id: personId, faceId });
      }
      rows.push({
        id: faceId,
        photoId: result.photoId,
        personId,
        box: toFractionBox(face.box, result.size),
        score: face.score,
        descriptor: descriptorToBytes(face.descriptor),
        source: "detected",
      });
    });
    for (const person of newPeople) await insertPerson(transaction, { id: person.id, ownerId: result.ownerId, coverFaceId: person.faceId }, now);
    await insertFaces(transaction, rows, now);
    await upsertFaceScan(transaction, { photoId: result.photoId, faceCount: rows.length, isCapped: result.isCapped }, now);
    await clearStaleCovers(transaction);
    await deleteEmptyUnnamedPeople(transaction);
    const joined = await refreshStaleCentroids(transaction, result.ownerId);
    // Every person a face left or joined had their centroid stored again (new people are unnamed).
    return { stored: rows.length, changed: [...left, ...joined] };
  });
  // Even none stored may have replaced faces found before (a turned photo looked at again).
  announcePeopleChanged({ ownerId: result.ownerId, personIds: changed });
  return stored;
}
