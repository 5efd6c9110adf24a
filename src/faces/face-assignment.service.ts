import "server-only";
import { type SessionUser, signedInUser, type Viewer } from "@/src/access/viewer";
import { insertAuditEntry } from "@/src/audit/audit.repository";
import type { DatabaseHandle } from "@/src/db/client";
import { inTransaction } from "@/src/db/transaction";
import { AppError } from "@/src/errors/app-error";
import { clearStaleCovers, deleteEmptyUnnamedPeople, findPerson, insertPerson } from "./faces.repository";
import { getPerson, type PersonView } from "./people.service";
import { announcePeopleChanged } from "./people-changes";
import { refreshStaleCentroids } from "./person-centroids";
import type { AssignFacesInput } from "./people.schemas";

// Naming many faces at once (issue 32): the owner picks faces from the grid of unnamed faces and
// gives them all to one of their people or to a new person, in one request and one transaction.
// Any face id that is not one of the owner's photos' faces is a 404 for the whole request, the same
// answer as an id that does not exist; nothing is changed unless everything is.

function userOf(viewer: Viewer): SessionUser {
  const user = signedInUser(viewer);
  if (!user) throw new AppError("UNAUTHENTICATED", "Sign in to name people.");
  return user;
}

/**
 * Gives these faces of the viewer's photos to one of their people (`personId`) or to a new person
 * (`name`). A person is in a photo once: two chosen faces of one photo, or a face of a photo the
 * person already has another face in, is a 409. People left with no face and no name go; covers
 * that pointed at a moved face are chosen again. Answers the person who now has the faces.
 */
export async function assignFacesByViewer(db: DatabaseHandle, viewer: Viewer, input: AssignFacesInput): Promise<PersonView> {
  const user = userOf(viewer);
  const faceIds = [...new Set(input.faceIds)];
  const { personId, changed } = await inTransaction(db, async (transaction) => {
    const faces = await transaction
      .selectFrom("faces")
      .innerJoin("photos", "photos.id", "faces.photo_id")
      .select(["faces.id", "faces.photo_id", "faces.person_id"])
      .where("faces.id", "in", faceIds)
      .where("photos.owner_id", "=", user.id)
      .execute();
    if (faces.length !== faceIds.length) throw new AppError("NOT_FOUND", "No face of yours has one of those ids.");
    const photoIds = faces.map((face) => face.photo_id);
    if (new Set(photoIds).size !== photoIds.length) throw new AppError("CONFLICT", "Two of those faces are in the same photo: one person appears once in a photo.");
    const now = new Date().toISOString();
    let targetId: string;
    if (input.personId !== undefined) {
      const person = await findPerson(transaction, user.id, input.personId);
      if (!person) throw new AppError("NOT_FOUND", "No person has that id.");
      const clash = await transaction
        .selectFrom("faces")
        .select("id")
        .where("person_id", "=", person.id)
        .where("photo_id", "in", photoIds)
        .where("id", "not in", faceIds)
        .executeTakeFirst();
      if (clash) throw new AppError("CONFLICT", `${person.name ?? "This person"} already has a face in one of those photos.`);
      targetId = person.id;
    } else {
      targetId = crypto.randomUUID();
      await insertPerson(transaction, { id: targetId, ownerId: user.id, name: input.name, coverFaceId: faceIds[0] }, now);
    }
    await transaction.updateTable("faces").set({ person_id: targetId }).where("id", "in", faceIds).execute();
    await clearStaleCovers(transaction);
    await transaction.updateTable("people").set({ cover_face_id: faceIds[0] }).where("id", "=", targetId).where("cover_face_id", "is", null).execute();
    await deleteEmptyUnnamedPeople(transaction);
    const refreshed = await refreshStaleCentroids(transaction, user.id);
    const before = Object.fromEntries(faces.map((face) => [face.id, face.person_id]));
    await insertAuditEntry(transaction, { actorId: user.id, action: "face.assign", targetId, details: { before, after: { personId: targetId, faceIds } } }, now);
    return { personId: targetId, changed: [targetId, ...faces.flatMap((face) => (face.person_id ? [face.person_id] : [])), ...refreshed] };
  });
  announcePeopleChanged({ ownerId: user.id, personIds: changed });
  return getPerson(db, viewer, personId);
}
