import "server-only";
import { type SessionUser, signedInUser, type Viewer } from "@/src/access/viewer";
import { insertAuditEntry } from "@/src/audit/audit.repository";
import type { DatabaseHandle } from "@/src/db/client";
import { inTransaction } from "@/src/db/transaction";
import { AppError } from "@/src/errors/app-error";
import { photoListAccessOf } from "@/src/photos/listable-photos";
import { summarizePhotos } from "@/src/photos/photos.service";
import { descriptorFromBytes } from "./face-descriptor";
import { namedCentroidIndexOf } from "./named-centroids-cache";
import { readCentroids } from "./person-centroids";
import { readFaceSettings } from "./face-settings";
import { findPerson } from "./faces.repository";
import { coverImageUrl, type FaceBox } from "./people.service";
import { type PersonSuggestion, rankSuggestions, suggestionDistance } from "./person-suggestions";
import { findFaceDescriptors, findRejections, insertRejection, listUnnamedFaces } from "./person-suggestions.repository";

// "Is this X?" (issue 32) for the owner's unnamed people and faces: the nearest of their named
// people (person-suggestions.ts says how near), never one they said no to. Only the owner asks
// (their people, their faces); anybody else's id is a 404. Answers carry ids, names and ranks,
// never a descriptor or a distance.

/** The unnamed-faces grid shows at most this many faces, newest photos first. */
export const UNNAMED_FACES_SHOWN = 200;

export interface UnnamedFaceView {
  id: string;
  photoId: string;
  personId: string | null;
  /** The face cut from its photo, as a person's cover is. */
  crop: { faceId: string; photoId: string; box: FaceBox; imageUrl: string | null; aspectRatio: number };
  suggestions: PersonSuggestion[];
}

function userOf(viewer: Viewer): SessionUser {
  const user = signedInUser(viewer);
  if (!user) throw new AppError("UNAUTHENTICATED", "Sign in to see people.");
  return user;
}

/** Named people who may be this unnamed person of the viewer's, nearest first; none for a named one. */
export async function suggestPeopleForPerson(db: DatabaseHandle, viewer: Viewer, personId: string): Promise<PersonSuggestion[]> {
  const user = userOf(viewer);
  const person = await findPerson(db, user.id, personId);
  if (!person) throw new AppError("NOT_FOUND", "No person has that id.");
  if (person.name !== null) return [];
  const [own, named, rejected, settings] = await Promise.all([
    readCentroids(db, user.id, [person.id]),
    namedCentroidIndexOf(db, user.id),
    findRejections(db, [person.id]),
    readFaceSettings(db),
  ]);
  return rankSuggestions(own.map((each) => each.centroid), named, rejected.get(person.id) ?? new Set(), suggestionDistance(settings.matchThreshold));
}

/**
 * The viewer's faces still to name (their people unnamed, or none), newest photos first, each cut
 * from its photo and with the named people it may be (from the face's own descriptor; the owner's
 * "no" to its person counts for it).
 */
export async function listUnnamedFacesForViewer(db: DatabaseHandle, viewer: Viewer): Promise<UnnamedFaceView[]> {
  const user = userOf(viewer);
  const faces = await listUnnamedFaces(db, user.id, photoListAccessOf(viewer), UNNAMED_FACES_SHOWN);
  if (faces.length === 0) return [];
  const personIds = [...new Set(faces.flatMap((face) => (face.personId ? [face.personId] : [])))];
  const [named, descriptors, rejected, settings, photoRows] = await Promise.all([
    namedCentroidIndexOf(db, user.id),
    findFaceDescriptors(db, faces.map((face) => face.id)),
    findRejections(db, personIds),
    readFaceSettings(db),
    db.selectFrom("photos").selectAll().where("id", "in", [...new Set(faces.map((face) => face.photoId))]).execute(),
  ]);
  const photos = new Map((await summarizePhotos(db, photoRows)).map((photo) => [photo.id, photo]));
  const reach = suggestionDistance(settings.matchThreshold);
  return faces.map((face) => {
    const box = { left: face.left, top: face.top, width: face.width, height: face.height };
    const photo = photos.get(face.photoId);
    const descriptor = descriptors.get(face.id);
    const refused = (face.personId ? rejected.get(face.personId) : undefined) ?? new Set<string>();
    return {
      id: face.id,
      photoId: face.photoId,
      personId: face.personId,
      crop: {
        faceId: face.id,
        photoId: face.photoId,
        box,
        imageUrl: photo ? coverImageUrl(photo, box) : null,
        aspectRatio: photo?.width && photo.height ? photo.width / photo.height : 1,
      },
      suggestions: named.size === 0 || !descriptor ? [] : rankSuggestions([descriptorFromBytes(descriptor)], named, refused, reach),
    };
  });
}

/**
 * "No, this is not them": `suggestedPersonId` (a named person of the viewer's) is never suggested
 * for `personId` (one of the viewer's) again. Another user's person, either way, is a 404.
 */
export async function rejectSuggestionByViewer(db: DatabaseHandle, viewer: Viewer, personId: string, suggestedPersonId: string): Promise<void> {
  const user = userOf(viewer);
  await inTransaction(db, async (transaction) => {
    const person = await findPerson(transaction, user.id, personId);
    const suggested = await findPerson(transaction, user.id, suggestedPersonId);
    if (!person || !suggested) throw new AppError("NOT_FOUND", "No person has that id.");
    if (person.id === suggested.id) throw new AppError("INVALID_INPUT", "A person is never suggested as themselves.");
    const now = new Date().toISOString();
    await insertRejection(transaction, person.id, suggested.id, now);
    await insertAuditEntry(transaction, { actorId: user.id, action: "person.suggestion.reject", targetId: person.id, details: { before: null, after: { notPersonId: suggested.id } } }, now);
  });
}
