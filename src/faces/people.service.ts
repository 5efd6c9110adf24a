import "server-only";
import { type SessionUser, signedInUser, type Viewer } from "@/src/access/viewer";
import { insertAuditEntry } from "@/src/audit/audit.repository";
import type { DatabaseHandle } from "@/src/db/client";
import type { FaceSource } from "@/src/db/database";
import { inTransaction } from "@/src/db/transaction";
import { AppError } from "@/src/errors/app-error";
import { mayList, type PhotoListAccess, photoListAccessOf } from "@/src/photos/listable-photos";
import { findPhotoById } from "@/src/photos/photos.repository";
import { type PhotoSummary, summarizePhotos } from "@/src/photos/photos.service";
import {
  deleteFace,
  deletePerson,
  findFaceOfPersonInPhoto,
  findFaceScan,
  findOwnedFace,
  findPerson,
  findPhotoFaces,
  clearStaleCovers,
  deleteEmptyUnnamedPeople,
  insertFaces,
  insertPerson,
  listOthersNamedPeople,
  listOwnerPeople,
  listPeopleFaces,
  listPersonPhotos,
  moveFacesToPerson,
  setFacePerson,
  updatePerson,
} from "./faces.repository";
import { type PeopleAccess, peopleAccessOf, seesOthersPeople } from "./people-access";
import type { AddManualFaceInput, UpdatePersonInput } from "./people.schemas";
import { announcePeopleChanged } from "./people-changes";
import { refreshStaleCentroids } from "./person-centroids";

// People are their owner's (private by default, issue 32): every change here is made to the
// signed-in user's own people and own photos' faces, and anybody else's id is a 404, the same
// answer as an id that does not exist. Who may SEE which people is people-access.ts: the owner,
// and with "members see people" on, signed-in users through the photos they may list. Visitors,
// share links, feeds, Open Graph, oEmbed and the sitemap never reach this module. No answer
// carries a descriptor.

export interface FaceBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface PersonView {
  id: string;
  /** The viewer's own person (only they may change them). */
  isOwn: boolean;
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
  /** The viewer owns the photo, so may draw faces on it by hand. */
  mayAddFaces: boolean;
}

export interface PhotoFaceView {
  id: string;
  photoId: string;
  personId: string | null;
  personName: string | null;
  /** Null for a person without a face (source "tag"): in the photo, nowhere in particular. */
  box: FaceBox | null;
  source: FaceSource;
}

/** A person without a face is stored as a face row with this empty box (the columns are required); it is never drawn. */
const NO_BOX: FaceBox = { left: 0, top: 0, width: 0, height: 0 };

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
export function coverImageUrl(photo: PhotoSummary, box: FaceBox): string | null {
  const jpegs = photo.variants.filter((variant) => variant.format === "jpeg").sort((a, b) => a.width - b.width);
  const needed = (COVER_CSS_PX * 2) / Math.max(box.width, 0.01);
  return (jpegs.find((variant) => variant.width >= needed) ?? jpegs.at(-1))?.url ?? null;
}

type PersonRow = { id: string; name: string | null; is_hidden: number; cover_face_id: string | null; photo_count: string | number };

/**
 * Views of these people, each with their cover: the chosen face, or their first face, in a photo
 * the viewer may list (`photos`): a face is never cut from a photo the viewer may not list.
 */
async function describePeople(db: DatabaseHandle, rows: PersonRow[], photosAccess: PhotoListAccess, ownIds: ReadonlySet<string>): Promise<PersonView[]> {
  const faces = await listPeopleFaces(db, rows.map((row) => row.id), photosAccess);
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
      isOwn: ownIds.has(row.id),
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

function accessOrThrow(access: PeopleAccess): Exclude<PeopleAccess, { kind: "nobody" }> {
  if (access.kind === "nobody") throw new AppError("UNAUTHENTICATED", "Sign in to see people.");
  return access;
}

/** Named people first, by name; then the unnamed, most photos first. */
function byNameThenCount(left: PersonRow, right: PersonRow): number {
  if ((left.name === null) !== (right.name === null)) return left.name === null ? 1 : -1;
  if (left.name !== null && right.name !== null && left.name !== right.name) return left.name.localeCompare(right.name);
  return Number(right.photo_count) - Number(left.photo_count) || (left.id < right.id ? -1 : 1);
}

/**
 * The people the viewer may see (people-access.ts): their own, hidden ones left out unless asked
 * for, and unnamed ones whose every photo is in the trash (they come back with their photos; a
 * named person stays, photos or not); with "members see people" on, also other owners' named
 * people in the photos the viewer may list (never hidden ones).
 */
export async function listPeople(db: DatabaseHandle, viewer: Viewer, options: { hidden?: "include" | "only" } = {}): Promise<PersonView[]> {
  const access = accessOrThrow(await peopleAccessOf(db, viewer));
  const own = (await listOwnerPeople(db, access.userId, options.hidden ?? "exclude")).filter((row) => row.name !== null || Number(row.photo_count) > 0);
  const others = seesOthersPeople(access) && options.hidden !== "only" ? await listOthersNamedPeople(db, access.userId, access.photos) : [];
  const rows = others.length === 0 ? own : [...own, ...others].sort(byNameThenCount);
  return describePeople(db, rows, access.photos, new Set(own.map((row) => row.id)));
}

/** One person the viewer may see; 404 for anyone else's they may not, as for an id that does not exist. */
export async function getPerson(db: DatabaseHandle, viewer: Viewer, personId: string): Promise<PersonView> {
  const access = accessOrThrow(await peopleAccessOf(db, viewer));
  const own = await listOwnerPeople(db, access.userId, "include", personId);
  if (own.length > 0) return (await describePeople(db, own, access.photos, new Set([personId])))[0];
  const other = seesOthersPeople(access) ? await listOthersNamedPeople(db, access.userId, access.photos, personId) : [];
  if (other.length === 0) throw new AppError("NOT_FOUND", "No person has that id.");
  return (await describePeople(db, other, access.photos, new Set()))[0];
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
      if (!face || face.person_id !== personId || face.source === "tag") throw new AppError("INVALID_INPUT", "The cover must be one of this person's faces (one with a box).");
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
  announcePeopleChanged({ ownerId: user.id, personIds: [personId] });
  return getPerson(db, viewer, personId);
}

/**
 * Merges one of the viewer's people into another of theirs: every face moves, the person merged
 * away is deleted; the one kept keeps their name and cover, or takes the other's when they have none.
 */
export async function mergePeopleByViewer(db: DatabaseHandle, viewer: Viewer, personId: string, intoPersonId: string): Promise<PersonView> {
  const user = userOf(viewer);
  if (personId === intoPersonId) throw new AppError("INVALID_INPUT", "A person cannot be merged into themselves.");
  const refreshed = await inTransaction(db, async (transaction) => {
    const from = await ownPerson(transaction, user, personId);
    const into = await ownPerson(transaction, user, intoPersonId);
    const now = new Date().toISOString();
    await moveFacesToPerson(transaction, from.id, into.id);
    await updatePerson(transaction, into.id, { name: into.name ?? from.name, cover_face_id: into.cover_face_id ?? from.cover_face_id }, now);
    await deletePerson(transaction, from.id);
    const centroids = await refreshStaleCentroids(transaction, user.id);
    await insertAuditEntry(transaction, { actorId: user.id, action: "person.merge", targetId: into.id, details: { before: { mergedPersonId: from.id, name: from.name }, after: { name: into.name ?? from.name } } }, now);
    return centroids;
  });
  announcePeopleChanged({ ownerId: user.id, personIds: [personId, intoPersonId, ...refreshed] });
  return getPerson(db, viewer, intoPersonId);
}

/** Takes a face wrongly grouped away from its person: it becomes a new, unnamed person of its own. */
export async function splitFaceByViewer(db: DatabaseHandle, viewer: Viewer, faceId: string): Promise<PersonView> {
  const user = userOf(viewer);
  const personId = crypto.randomUUID();
  const changed = await inTransaction(db, async (transaction) => {
    const face = await findOwnedFace(transaction, user.id, faceId);
    if (!face) throw new AppError("NOT_FOUND", "No face has that id.");
    if (face.source === "tag") throw new AppError("INVALID_INPUT", "A person without a face is removed from the photo, not split off.");
    const now = new Date().toISOString();
    await insertPerson(transaction, { id: personId, ownerId: user.id, coverFaceId: face.id }, now);
    await setFacePerson(transaction, face.id, personId);
    if (face.person_id) {
      await transaction.updateTable("people").set({ cover_face_id: null }).where("id", "=", face.person_id).where("cover_face_id", "=", face.id).execute();
    }
    const refreshed = await refreshStaleCentroids(transaction, user.id);
    await insertAuditEntry(transaction, { actorId: user.id, action: "person.split", targetId: personId, details: { before: { personId: face.person_id }, after: { personId, faceId } } }, now);
    return [personId, ...(face.person_id ? [face.person_id] : []), ...refreshed];
  });
  announcePeopleChanged({ ownerId: user.id, personIds: changed });
  return getPerson(db, viewer, personId);
}

/**
 * A photo's faces with their people's names. Its owner gets every face (hidden people's left out);
 * with "members see people" on, a signed-in user who may list the photo gets the faces of named,
 * shown people; anybody else none, as if there were none.
 */
export async function listPhotoFacesForViewer(db: DatabaseHandle, viewer: Viewer, photoId: string): Promise<PhotoFacesView> {
  const none = { faces: [], isCapped: false, mayAddFaces: false };
  const access = await peopleAccessOf(db, viewer);
  if (access.kind === "nobody") return none;
  const photo = await findPhotoById(db, photoId);
  if (!photo) return none;
  const isOwner = photo.owner_id === access.userId;
  if (!isOwner && !(seesOthersPeople(access) && mayList(access.photos, photo))) return none;
  const [faces, scan] = await Promise.all([findPhotoFaces(db, photoId), findFaceScan(db, photoId)]);
  const shown = isOwner ? faces : faces.filter((face) => face.personName !== null);
  return { faces: toFaceViews(shown, photoId), isCapped: isOwner && scan?.is_capped === 1, mayAddFaces: isOwner && photo.trashed_at === null };
}

function toFaceViews(faces: Awaited<ReturnType<typeof findPhotoFaces>>, photoId: string): PhotoFaceView[] {
  return faces
    .filter((face) => face.personHidden !== 1)
    .map((face) => ({
      id: face.id,
      photoId,
      personId: face.personId,
      personName: face.personName,
      box: face.source === "tag" ? null : { left: face.left, top: face.top, width: face.width, height: face.height },
      source: face.source,
    }));
}

/**
 * A face drawn by hand on one of the viewer's photos (where detection missed it), or with no box a
 * person without a face (someone turned away), given to one of their people or to a new person of
 * that name, who may have no detected face at all. Stored with source 'manual' (or 'tag': no box)
 * and no descriptor: a rescan replaces only detected faces, turning detection off keeps it, and
 * clustering and "is this X?" never see it. A person without a face is a face row, not a link table
 * of its own, so everything that asks who is in a photo (the photo's people, a person's page and
 * count, person: search, the visibility rule, "once per photo", the photo's deletion) counts them
 * with no second source to join. Another user's photo or person is a 404; a person already in the
 * photo is a 409; nothing is stored unless all of it is.
 */
export async function addManualFace(db: DatabaseHandle, viewer: Viewer, photoId: string, input: AddManualFaceInput): Promise<PhotoFaceView> {
  const user = userOf(viewer);
  const faceId = crypto.randomUUID();
  const changedPersonId = await inTransaction(db, async (transaction) => {
    const photo = await findPhotoById(transaction, photoId);
    if (!photo || photo.owner_id !== user.id || photo.trashed_at !== null) throw new AppError("NOT_FOUND", "No photo of yours has that id.");
    const now = new Date().toISOString();
    let personId: string;
    if (input.personId !== undefined) {
      const person = await ownPerson(transaction, user, input.personId);
      if (await findFaceOfPersonInPhoto(transaction, person.id, photoId)) throw new AppError("CONFLICT", `${person.name ?? "This person"} already has a face in this photo.`);
      personId = person.id;
    } else {
      personId = crypto.randomUUID();
      await insertPerson(transaction, { id: personId, ownerId: user.id, name: input.name, coverFaceId: input.box ? faceId : null }, now);
    }
    const source = input.box ? "manual" : "tag";
    await insertFaces(transaction, [{ id: faceId, photoId, personId, box: input.box ?? NO_BOX, score: null, descriptor: null, source }], now);
    // A cover is a face cut from its photo: a person without a face has nothing to cut.
    if (input.box) await transaction.updateTable("people").set({ cover_face_id: faceId }).where("id", "=", personId).where("cover_face_id", "is", null).execute();
    await insertAuditEntry(transaction, { actorId: user.id, action: "face.add", targetId: faceId, details: { before: null, after: { photoId, personId, box: input.box } } }, now);
    return personId;
  });
  // A face drawn by hand has no descriptor: no centroid moves, but a new person may have a name.
  announcePeopleChanged({ ownerId: user.id, personIds: [changedPersonId] });
  const face = (await listPhotoFacesForViewer(db, viewer, photoId)).faces.find((each) => each.id === faceId);
  if (!face) throw new AppError("NOT_FOUND", "The face is gone.");
  return face;
}

/**
 * Removes a face drawn by hand, or a person without a face, from one of the viewer's photos (a
 * detected face is split off or its person hidden instead: detection would find it again). A
 * person left with no face and no name goes too.
 */
export async function removeManualFace(db: DatabaseHandle, viewer: Viewer, faceId: string): Promise<void> {
  const user = userOf(viewer);
  const changed = await inTransaction(db, async (transaction) => {
    const face = await findOwnedFace(transaction, user.id, faceId);
    if (!face) throw new AppError("NOT_FOUND", "No face has that id.");
    if (face.source === "detected") throw new AppError("INVALID_INPUT", "Only a face drawn by hand can be removed; split a detected face off or hide its person.");
    const now = new Date().toISOString();
    await deleteFace(transaction, face.id);
    await clearStaleCovers(transaction);
    await deleteEmptyUnnamedPeople(transaction);
    const refreshed = await refreshStaleCentroids(transaction, user.id);
    await insertAuditEntry(transaction, { actorId: user.id, action: "face.remove", targetId: face.id, details: { before: { photoId: face.photo_id, personId: face.person_id }, after: null } }, now);
    return [...(face.person_id ? [face.person_id] : []), ...refreshed];
  });
  announcePeopleChanged({ ownerId: user.id, personIds: changed });
}
