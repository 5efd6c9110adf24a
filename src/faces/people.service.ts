import "server-only";
import { type SessionUser, signedInUser, type Viewer } from "@/src/access/viewer";
import { insertAuditEntry } from "@/src/audit/audit.repository";
import type { DatabaseHandle } from "@/src/db/client";
import { inTransaction } from "@/src/db/transaction";
import { AppError } from "@/src/errors/app-error";
import { photoListAccessOf } from "@/src/photos/listable-photos";
import { findPhotoById } from "@/src/photos/photos.repository";
import { type PhotoSummary, summarizePhotos } from "@/src/photos/photos.service";
import {
  deletePerson,
  findFaceScan,
  findOwnedFace,
  findPerson,
  findPhotoFaces,
  insertPerson,
  listOwnerPeople,
  listPeopleFaces,
  listPersonPhotos,
  moveFacesToPerson,
  setFacePerson,
  updatePerson,
} from "./faces.repository";
import type { UpdatePersonInput } from "./people.schemas";

// People are their owner's alone (private by default, issue 32): every question here is asked for
// the signed-in user's own people and own photos' faces, and anybody else's id is a 404, the same
// answer as an id that does not exist. Visitors, share links, feeds, Open Graph, oEmbed and the
// sitemap never reach this module. No answer carries a descriptor.

export interface FaceBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface PersonView {
  id: string;
  name: string | null;
  isHidden: boolean;
  photoCount: number;
  /** The face shown for the person: its photo's image and where the face is in it. */
  cover: { faceId: string; photoId: string; box: FaceBox; imageUrl: string | null; aspectRatio: number } | null;
}

export interface PhotoFacesView {
  faces: PhotoFaceView[];
  /** Detection found more faces than it keeps (MAX_FACES_PER_PHOTO, the strongest). */
  isCapped: boolean;
}

export interface PhotoFaceView {
  id: string;
  photoId: string;
  personId: string | null;
  personName: string | null;
  box: FaceBox;
  source: "detected" | "manual";
}

/** How many of a person's photos their page shows (newest first). */
const PERSON_PAGE_PHOTOS = 500;
/** A cover is drawn about this wide: the variant picked shows the face at least this many pixels wide on a 2x screen. */
const COVER_CSS_PX = 160;

function userOf(viewer: Viewer): SessionUser {
  const user = signedInUser(viewer);
  if (!user) throw new AppError("UNAUTHENTICATED", "Sign in to see people.");
  return user;
}

async function ownPerson(db: DatabaseHandle, user: SessionUser, personId: string) {
  const person = await findPerson(db, user.id, personId);
  if (!person) throw new AppError("NOT_FOUND", "No person has that id.");
  return person;
}

/** The narrowest JPEG that shows the face at least COVER_CSS_PX × 2 pixels wide, else the widest. */
function coverImageUrl(photo: PhotoSummary, box: FaceBox): string | null {
  const jpegs = photo.variants.filter((variant) => variant.format === "jpeg").sort((a, b) => a.width - b.width);
  const needed = (COVER_CSS_PX * 2) / Math.max(box.width, 0.01);
  return (jpegs.find((variant) => variant.width >= needed) ?? jpegs.at(-1))?.url ?? null;
}

/** Views of these people, each with their cover: the chosen face, or their first face in a photo outside the trash. */
async function describePeople(
  db: DatabaseHandle,
  rows: Array<{ id: string; name: string | null; is_hidden: number; cover_face_id: string | null; photo_count: string | number }>,
): Promise<PersonView[]> {
  const faces = await listPeopleFaces(db, rows.map((row) => row.id));
  const coverOf = new Map<string, (typeof faces)[number]>();
  for (const row of rows) {
    const own = faces.filter((face) => face.personId === row.id);
    const cover = own.find((face) => face.id === row.cover_face_id) ?? own[0];
    if (cover) coverOf.set(row.id, cover);
  }
  const photoRows = await db.selectFrom("photos").selectAll().where("id", "in", [...new Set([...coverOf.values()].map((face) => face.photoId)), ""]).execute();
  const photos = new Map((await summarizePhotos(db, photoRows)).map((photo) => [photo.id, photo]));
  return rows.map((row) => {
    const face = coverOf.get(row.id);
    const photo = face ? photos.get(face.photoId) : undefined;
    const box = face ? { left: face.left, top: face.top, width: face.width, height: face.height } : null;
    return {
      id: row.id,
      name: row.name,
      isHidden: row.is_hidden === 1,
      photoCount: Number(row.photo_count),
      cover:
        face && photo && box
          ? { faceId: face.id, photoId: face.photoId, box, imageUrl: coverImageUrl(photo, box), aspectRatio: photo.width && photo.height ? photo.width / photo.height : 1 }
          : null,
    };
  });
}

/**
 * The viewer's own people: hidden ones left out unless asked for, and unnamed ones whose every
 * photo is in the trash (they come back with their photos; a named person stays, photos or not).
 */
export async function listPeople(db: DatabaseHandle, viewer: Viewer, options: { hidden?: "include" | "only" } = {}): Promise<PersonView[]> {
  const user = userOf(viewer);
  const rows = await listOwnerPeople(db, user.id, options.hidden ?? "exclude");
  return describePeople(db, rows.filter((row) => row.name !== null || Number(row.photo_count) > 0));
}

export async function getPerson(db: DatabaseHandle, viewer: Viewer, personId: string): Promise<PersonView> {
  const user = userOf(viewer);
  await ownPerson(db, user, personId);
  const rows = (await listOwnerPeople(db, user.id, "include")).filter((row) => row.id === personId);
  return (await describePeople(db, rows))[0];
}

/** A person's page: the person and their photos the viewer may list (the one photo access rule). */
export async function getPersonPage(db: DatabaseHandle, viewer: Viewer, personId: string): Promise<{ person: PersonView; photos: PhotoSummary[] }> {
  const person = await getPerson(db, viewer, personId);
  const rows = await listPersonPhotos(db, personId, photoListAccessOf(viewer), PERSON_PAGE_PHOTOS);
  return { person, photos: await summarizePhotos(db, rows) };
}

/** Name (or unname), hide or show, or choose the cover of one of the viewer's people; audited. */
export async function updatePersonByViewer(db: DatabaseHandle, viewer: Viewer, personId: string, input: UpdatePersonInput): Promise<PersonView> {
  const user = userOf(viewer);
  await inTransaction(db, async (transaction) => {
    const person = await ownPerson(transaction, user, personId);
    if (input.coverFaceId !== undefined) {
      const face = await findOwnedFace(transaction, user.id, input.coverFaceId);
      if (!face || face.person_id !== personId) throw new AppError("INVALID_INPUT", "The cover must be one of this person's faces.");
    }
    const change = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.isHidden !== undefined ? { is_hidden: input.isHidden ? 1 : 0 } : {}),
      ...(input.coverFaceId !== undefined ? { cover_face_id: input.coverFaceId } : {}),
    };
    const now = new Date().toISOString();
    await updatePerson(transaction, personId, change, now);
    const before = { name: person.name, is_hidden: person.is_hidden, cover_face_id: person.cover_face_id };
    await insertAuditEntry(transaction, { actorId: user.id, action: "person.update", targetId: personId, details: { before, after: { ...before, ...change } } }, now);
  });
  return getPerson(db, viewer, personId);
}

/**
 * Merges one of the viewer's people into another of theirs: every face moves, the person merged
 * away is deleted; the one kept keeps their name and cover, or takes the other's when they have none.
 */
export async function mergePeopleByViewer(db: DatabaseHandle, viewer: Viewer, personId: string, intoPersonId: string): Promise<PersonView> {
  const user = userOf(viewer);
  if (personId === intoPersonId) throw new AppError("INVALID_INPUT", "A person cannot be merged into themselves.");
  await inTransaction(db, async (transaction) => {
    const from = await ownPerson(transaction, user, personId);
    const into = await ownPerson(transaction, user, intoPersonId);
    const now = new Date().toISOString();
    await moveFacesToPerson(transaction, from.id, into.id);
    await updatePerson(transaction, into.id, { name: into.name ?? from.name, cover_face_id: into.cover_face_id ?? from.cover_face_id }, now);
    await deletePerson(transaction, from.id);
    await insertAuditEntry(transaction, { actorId: user.id, action: "person.merge", targetId: into.id, details: { before: { mergedPersonId: from.id, name: from.name }, after: { name: into.name ?? from.name } } }, now);
  });
  return getPerson(db, viewer, intoPersonId);
}

/** Takes a face wrongly grouped away from its person: it becomes a new, unnamed person of its own. */
export async function splitFaceByViewer(db: DatabaseHandle, viewer: Viewer, faceId: string): Promise<PersonView> {
  const user = userOf(viewer);
  const personId = crypto.randomUUID();
  await inTransaction(db, async (transaction) => {
    const face = await findOwnedFace(transaction, user.id, faceId);
    if (!face) throw new AppError("NOT_FOUND", "No face has that id.");
    const now = new Date().toISOString();
    await insertPerson(transaction, { id: personId, ownerId: user.id, coverFaceId: face.id }, now);
    await setFacePerson(transaction, face.id, personId);
    if (face.person_id) {
      await transaction.updateTable("people").set({ cover_face_id: null }).where("id", "=", face.person_id).where("cover_face_id", "=", face.id).execute();
    }
    await insertAuditEntry(transaction, { actorId: user.id, action: "person.split", targetId: personId, details: { before: { personId: face.person_id }, after: { personId, faceId } } }, now);
  });
  return getPerson(db, viewer, personId);
}

/**
 * A photo's faces with their people's names, for the photo's owner only: people are private to
 * the owner, so anyone else (another member, an admin, a visitor) gets none, as if there were none.
 */
export async function listPhotoFacesForViewer(db: DatabaseHandle, viewer: Viewer, photoId: string): Promise<PhotoFacesView> {
  const none = { faces: [], isCapped: false };
  const user = signedInUser(viewer);
  if (!user) return none;
  const photo = await findPhotoById(db, photoId);
  if (!photo || photo.owner_id !== user.id) return none;
  const [faces, scan] = await Promise.all([findPhotoFaces(db, photoId), findFaceScan(db, photoId)]);
  return { faces: toFaceViews(faces, photoId), isCapped: scan?.is_capped === 1 };
}

function toFaceViews(faces: Awaited<ReturnType<typeof findPhotoFaces>>, photoId: string): PhotoFaceView[] {
  return faces
    .filter((face) => face.personHidden !== 1)
    .map((face) => ({
      id: face.id,
      photoId,
      personId: face.personId,
      personName: face.personName,
      box: { left: face.left, top: face.top, width: face.width, height: face.height },
      source: face.source,
    }));
}
