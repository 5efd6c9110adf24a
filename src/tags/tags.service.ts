import "server-only";
import { signedInUser, type SessionUser, toViewer, type Viewer } from "@/src/access/viewer";
import { insertAuditEntry } from "@/src/audit/audit.repository";
import type { DatabaseHandle } from "@/src/db/client";
import { decodeKeysetCursor, encodeKeysetCursor } from "@/src/db/keyset-cursor";
import type { PhotoRow, TagRow } from "@/src/db/database";
import { inTransaction } from "@/src/db/transaction";
import { AppError } from "@/src/errors/app-error";
import { type PhotoListAccess, photoListAccessOf } from "@/src/photos/listable-photos";
import { canEditPhoto, canViewPhoto } from "@/src/photos/photo-access";
import { cacheUntilPhotosChange } from "@/src/photos/cache-until-photos-change";
import { announcePhotosChanged } from "@/src/photos/photo-changes";
import { claimFileKeywords, findPhotoById, markFileKeywordsRead } from "@/src/photos/photos.repository";
import { type PhotoSummary, summarizePhotos } from "@/src/photos/photos.service";
import { cleanTagName, MAXIMUM_TAGS_PER_PHOTO, tagKey, tagNameProblem, tagPath } from "./tag-name";
import {
  copyPhotoTags,
  countPhotosPerTag,
  deletePhotoTags,
  deleteTags,
  findPhotosForTagging,
  findTagById,
  findTagByKey,
  findTagsByIds,
  findTagsByKeys,
  insertMissingTags,
  insertPhotoTags,
  listAllTagsWithCounts,
  listTagPhotos,
  listTagsOfPhotos,
  suggestTagsByPrefix,
  type TagCountRow,
  updateTag,
} from "./tags.repository";

/** A tag as answered: shown by its name, linked by its path. */
export interface TagView {
  id: string;
  name: string;
  key: string;
  /** Where its page is: /tags/<key>. */
  path: string;
}

export interface TagWithCount extends TagView {
  /** How many photos the one asking may see with it (the admin's list: every photo). */
  count: number;
}

/** The most photos one bulk change may name. */
export const MAXIMUM_PHOTOS_PER_CHANGE = 500;

/** Who is acting: a viewer, or the signed-in user as the wrappers hand it out. */
type Actor = Viewer | SessionUser;

function asViewer(actor: Actor): Viewer {
  return "kind" in actor ? actor : toViewer(actor);
}

function toView(tag: TagRow): TagView {
  return { id: tag.id, name: tag.name, key: tag.key, path: tagPath(tag.key) };
}

function byName(left: TagView, right: TagView): number {
  return left.key < right.key ? -1 : left.key > right.key ? 1 : 0;
}

/** The names cleaned and checked (422 on the first bad one), one per key, first spelling kept. */
function parseNames(names: string[]): Array<{ name: string; key: string }> {
  const parsed = new Map<string, string>();
  for (const name of names) {
    const problem = tagNameProblem(name);
    if (problem) throw new AppError("INVALID_INPUT", problem);
    const key = tagKey(name);
    if (!parsed.has(key)) parsed.set(key, cleanTagName(name));
  }
  if (parsed.size > MAXIMUM_TAGS_PER_PHOTO) throw new AppError("INVALID_INPUT", `A photo has at most ${MAXIMUM_TAGS_PER_PHOTO} tags.`);
  return [...parsed].map(([key, name]) => ({ key, name }));
}

/** The tags of these names, made where they do not exist yet (an existing tag keeps its spelling). */
async function ensureTags(db: DatabaseHandle, names: Array<{ name: string; key: string }>, now: string): Promise<TagRow[]> {
  if (names.length === 0) return [];
  const keys = names.map((each) => each.key);
  const existing = new Set((await findTagsByKeys(db, keys)).map((tag) => tag.key));
  await insertMissingTags(
    db,
    names.filter((each) => !existing.has(each.key)).map((each) => ({ id: crypto.randomUUID(), name: each.name, key: each.key, created_at: now })),
  );
  return findTagsByKeys(db, keys);
}

/** The photos, each one this user may edit and not in the trash; otherwise 404 (the same answer whether it exists or not). */
async function getEditablePhotos(db: DatabaseHandle, viewer: Viewer, photoIds: string[]): Promise<Array<Pick<PhotoRow, "id" | "sort_at">>> {
  const unique = [...new Set(photoIds)];
  if (unique.length === 0) throw new AppError("INVALID_INPUT", "Name at least one photo.");
  if (unique.length > MAXIMUM_PHOTOS_PER_CHANGE) throw new AppError("INVALID_INPUT", `Change at most ${MAXIMUM_PHOTOS_PER_CHANGE} photos at once.`);
  const photos = await findPhotosForTagging(db, unique);
  const editable = photos.filter((photo) => photo.trashed_at === null && canEditPhoto(viewer, photo));
  if (editable.length !== unique.length) {
    throw new AppError("NOT_FOUND", unique.length === 1 ? "No photo has that id." : "Some of those photos do not exist or are not yours to change.");
  }
  return editable;
}

/** Each photo's tag names, for the audit entry. */
async function namesByPhoto(db: DatabaseHandle, photoIds: string[]): Promise<Record<string, string[]>> {
  const rows = await listTagsOfPhotos(db, photoIds);
  const names: Record<string, string[]> = Object.fromEntries(photoIds.map((id) => [id, [] as string[]]));
  for (const row of rows) names[row.photo_id].push(row.name);
  return names;
}

function afterChange(): void {
  // Caches of photo rows (and the tag counts below, which listen too) drop themselves; no photo's
  // own row changed, so the map (which holds nothing of tags) keeps its index.
  announcePhotosChanged([]);
}

/**
 * Gives the photo exactly these tags (made where they are new): one transaction, one "photo.tags"
 * audit row. Only its owner (an editor) or an admin; otherwise 404. The list set is the whole
 * truth, so it also marks the file's keywords read: processing that has not run yet never adds
 * them on top (an export's sidecar imported into a new site, where the owner had taken a keyword
 * tag off, sets its list this way). Marked first, so on PostgreSQL the photo's row lock waits for
 * a keyword tagging already under way and the list read next includes what it added.
 */
export async function setPhotoTags(db: DatabaseHandle, user: Actor, photoId: string, names: string[]): Promise<TagView[]> {
  const viewer = asViewer(user);
  const wanted = parseNames(names);
  const now = new Date().toISOString();
  const result = await inTransaction(db, async (transaction) => {
    const [photo] = await getEditablePhotos(transaction, viewer, [photoId]);
    await markFileKeywordsRead(transaction, photo.id);
    const before = await listTagsOfPhotos(transaction, [photo.id]);
    const tags = await ensureTags(transaction, wanted, now);
    const keep = new Set(tags.map((tag) => tag.id));
    await deletePhotoTags(transaction, [photo.id], before.filter((tag) => !keep.has(tag.id)).map((tag) => tag.id));
    await insertPhotoTags(transaction, tags.map((tag) => ({ photo_id: photo.id, tag_id: tag.id, sort_at: photo.sort_at })));
    const after = tags.map(toView).sort(byName);
    await insertAuditEntry(
      transaction,
      {
        actorId: signedInUser(viewer)?.id ?? null,
        action: "photo.tags",
        targetId: photo.id,
        details: { before: { tags: before.map((tag) => tag.name) }, after: { tags: after.map((tag) => tag.name) } },
      },
      now,
    );
    return after;
  });
  afterChange();
  return result;
}

/**
 * One bulk change of tags on several photos: one transaction, one "photo.tags" audit row with every
 * photo's tags before and after; 404 when any photo is not the user's to change. `apply` changes
 * the rows and answers the tags it added or removed.
 */
async function changeTagsOfPhotos(
  db: DatabaseHandle,
  user: Actor,
  photoIds: string[],
  names: string[],
  change: "added" | "removed",
  apply: (transaction: DatabaseHandle, photos: Array<{ id: string; sort_at: string }>, wanted: Array<{ name: string; key: string }>, now: string) => Promise<TagRow[]>,
): Promise<TagView[]> {
  const viewer = asViewer(user);
  const wanted = parseNames(names);
  if (wanted.length === 0) throw new AppError("INVALID_INPUT", "Name at least one tag.");
  const now = new Date().toISOString();
  const result = await inTransaction(db, async (transaction) => {
    const photos = await getEditablePhotos(transaction, viewer, photoIds);
    const ids = photos.map((photo) => photo.id);
    const before = await namesByPhoto(transaction, ids);
    const tags = await apply(transaction, photos, wanted, now);
    await insertAuditEntry(
      transaction,
      {
        actorId: signedInUser(viewer)?.id ?? null,
        action: "photo.tags",
        targetId: ids.length === 1 ? ids[0] : null,
        details: { [change]: tags.map((tag) => tag.name), before: { tags: before }, after: { tags: await namesByPhoto(transaction, ids) } },
      },
      now,
    );
    return tags.map(toView).sort(byName);
  });
  afterChange();
  return result;
}

/** Adds these tags to every one of the photos (bulk edit): one transaction, one audit row; 404 if any photo is not the user's to change. */
export function addTagsToPhotos(db: DatabaseHandle, user: Actor, photoIds: string[], names: string[]): Promise<TagView[]> {
  return changeTagsOfPhotos(db, user, photoIds, names, "added", async (transaction, photos, wanted, now) => {
    const tags = await ensureTags(transaction, wanted, now);
    await insertPhotoTags(transaction, photos.flatMap((photo) => tags.map((tag) => ({ photo_id: photo.id, tag_id: tag.id, sort_at: photo.sort_at }))));
    return tags;
  });
}

/** Takes these tags off every one of the photos (bulk edit); names that are no tag are ignored. One transaction, one audit row. */
export function removeTagsFromPhotos(db: DatabaseHandle, user: Actor, photoIds: string[], names: string[]): Promise<TagView[]> {
  return changeTagsOfPhotos(db, user, photoIds, names, "removed", async (transaction, photos, wanted) => {
    const tags = await findTagsByKeys(transaction, wanted.map((each) => each.key));
    await deletePhotoTags(transaction, photos.map((photo) => photo.id), tags.map((tag) => tag.id));
    return tags;
  });
}

/**
 * The keywords written into a photo's file become its tags, on top of those it has (the importer's
 * sidecar keywords and --tag, the owner's own), when it is first processed: cleaned and folded like
 * every tag name, a keyword no tag may be (too long) left out, and no more than a photo may hold.
 * One transaction, one "photo.tags" audit row without an actor (processing did it, not a person).
 * The transaction first claims the photo's one turn (file_keywords_read): a photo whose owner set
 * its whole tag list meanwhile (setPhotoTags) gets nothing, even when processing read the flag
 * before the owner set it.
 */
export async function tagPhotoFromItsFile(db: DatabaseHandle, photoId: string, keywords: readonly string[]): Promise<void> {
  const wanted = new Map<string, string>();
  for (const keyword of keywords) {
    const key = tagKey(keyword);
    if (tagNameProblem(keyword) === null && !wanted.has(key)) wanted.set(key, cleanTagName(keyword));
  }
  if (wanted.size === 0) return;
  const now = new Date().toISOString();
  const changed = await inTransaction(db, async (transaction) => {
    if (!(await claimFileKeywords(transaction, photoId))) return false;
    const [photo] = await findPhotosForTagging(transaction, [photoId]);
    if (!photo) return false;
    const before = await listTagsOfPhotos(transaction, [photoId]);
    const had = new Set(before.map((tag) => tag.key));
    const room = Math.max(0, MAXIMUM_TAGS_PER_PHOTO - before.length);
    const added = [...wanted].filter(([key]) => !had.has(key)).slice(0, room).map(([key, name]) => ({ key, name }));
    if (added.length === 0) return false;
    const tags = await ensureTags(transaction, added, now);
    await insertPhotoTags(transaction, tags.map((tag) => ({ photo_id: photo.id, tag_id: tag.id, sort_at: photo.sort_at })));
    await insertAuditEntry(
      transaction,
      {
        actorId: null,
        action: "photo.tags",
        targetId: photo.id,
        details: {
          added: tags.map((tag) => tag.name),
          before: { tags: before.map((tag) => tag.name) },
          after: { tags: [...before, ...tags].map((tag) => tag.name) },
          source: "the file's keywords",
        },
      },
      now,
    );
    return true;
  });
  if (changed) afterChange();
}

/** The photo's tags, for whoever may see the photo (404 otherwise, or when it is in the trash). */
export async function listTagsForPhoto(db: DatabaseHandle, viewer: Actor, photoId: string): Promise<TagView[]> {
  const photo = await findPhotoById(db, photoId);
  if (!photo || photo.trashed_at !== null || !canViewPhoto(asViewer(viewer), photo)) throw new AppError("NOT_FOUND", "No photo has that id.");
  return (await listTagsOfPhotos(db, [photoId])).map(toView);
}

/** Tags starting with what was typed, among those on photos the user may see or owns (autocomplete). */
export async function suggestTags(db: DatabaseHandle, user: Actor, prefix: string, limit: number): Promise<TagView[]> {
  const viewer = asViewer(user);
  if (signedInUser(viewer) === null) throw new AppError("UNAUTHENTICATED", "Sign in to continue.");
  const cleaned = cleanTagName(prefix);
  const key = cleaned.length === 0 ? "" : tagKey(cleaned);
  const rows = await suggestTagsByPrefix(db, key, photoListAccessOf(viewer), Math.max(1, Math.min(Math.floor(limit), 50)));
  return rows.map(toView);
}

// Counts are remembered briefly: /tags would otherwise count every tagged photo on every view. One
// entry per kind of viewer for the photos they all share (visitors: public; members: public and
// members; admins: all), and one per signed-in user for their own photos outside those. Dropped at
// once when photos or tags change in this process; another process's change shows within REMEMBER_MS.
const REMEMBER_MS = 5_000;
const MAXIMUM_REMEMBERED = 1_000;
const rememberedCounts = cacheUntilPhotosChange<TagCountRow[]>({ lifetimeMs: REMEMBER_MS, maxEntries: MAXIMUM_REMEMBERED });

function countRemembered(db: DatabaseHandle, access: PhotoListAccess, part: "shared" | "own"): Promise<TagCountRow[]> {
  const visibilities = [...access.visibilities].sort().join(",");
  const key = part === "shared" ? `shared:${visibilities}` : `own:${access.viewerId}:${visibilities}:${access.ownPhotos}`;
  return rememberedCounts.get(db, key, () => countPhotosPerTag(db, access, part));
}

/**
 * Every tag with at least one photo this viewer may list (the gallery's list rule: others' finished
 * photos, the viewer's own in any state, never the trash), with how many, in name order. A tag whose only photos the viewer may not list is not answered at all.
 */
export async function listTagsForViewer(db: DatabaseHandle, viewer: Actor): Promise<TagWithCount[]> {
  const access = photoListAccessOf(asViewer(viewer));
  const [shared, own] = await Promise.all([
    countRemembered(db, access, "shared"),
    access.viewerId !== null ? countRemembered(db, access, "own") : Promise.resolve([]),
  ]);
  const counts = new Map<string, number>();
  for (const row of [...shared, ...own]) counts.set(row.tag_id, (counts.get(row.tag_id) ?? 0) + row.count);
  const tags = await findTagsByIds(db, [...counts.keys()]);
  return tags.map((tag) => ({ ...toView(tag), count: counts.get(tag.id) ?? 0 })).sort(byName);
}

/** Every tag with all its photos counted, for the admin page. */
export async function listTagsForAdmin(db: DatabaseHandle, admin: Actor): Promise<TagWithCount[]> {
  assertAdmin(asViewer(admin));
  return (await listAllTagsWithCounts(db)).map((tag) => ({ ...toView(tag), count: tag.count }));
}

function encodeCursor(photo: PhotoRow): string {
  return encodeKeysetCursor(photo.sort_at, photo.id);
}

function decodeCursor(cursor: string): { sortAt: string; id: string } {
  const [sortAt, id] = decodeKeysetCursor(cursor, 2);
  return { sortAt, id };
}

/** The tag a /tags/[tag] address names: by its key or any spelling of its name, case-insensitively. */
export async function findTagBySlug(db: DatabaseHandle, slugOrName: string): Promise<TagRow | undefined> {
  if (tagNameProblem(slugOrName) !== null) return undefined;
  return findTagByKey(db, tagKey(slugOrName));
}

/**
 * A page of the tag's photos this viewer may list, in gallery order. 404 when there is no such tag,
 * or when the viewer may see none of its photos (a tag nobody may see looks like no tag).
 */
export async function listTagPhotosForViewer(
  db: DatabaseHandle,
  viewer: Actor,
  tagSlugOrName: string,
  options: { cursor?: string; limit: number },
): Promise<{ tag: TagView; photos: PhotoSummary[]; nextCursor: string | null }> {
  const tag = await findTagBySlug(db, tagSlugOrName);
  if (!tag) throw new AppError("NOT_FOUND", "No tag has that name.");
  const limit = Math.max(1, Math.min(Math.floor(options.limit), 100));
  const rows = await listTagPhotos(db, {
    tagId: tag.id,
    access: photoListAccessOf(asViewer(viewer)),
    after: options.cursor ? decodeCursor(options.cursor) : undefined,
    limit: limit + 1,
  });
  if (rows.length === 0 && !options.cursor) throw new AppError("NOT_FOUND", "No tag has that name.");
  const page = rows.slice(0, limit);
  return { tag: toView(tag), photos: await summarizePhotos(db, page), nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1]) : null };
}

function assertAdmin(viewer: Viewer): SessionUser {
  const user = signedInUser(viewer);
  if (user === null) throw new AppError("UNAUTHENTICATED", "Sign in to continue.");
  if (user.role !== "admin") throw new AppError("FORBIDDEN", "Only admins can rename and merge tags.");
  return user;
}

/**
 * Renames a tag (admins only). A new spelling of the same key just changes how it is shown; a name
 * that is another tag's is refused with 409 (merge the two instead, so it never happens by accident).
 */
export async function renameTag(db: DatabaseHandle, admin: Actor, id: string, name: string): Promise<TagView> {
  const user = assertAdmin(asViewer(admin));
  const problem = tagNameProblem(name);
  if (problem) throw new AppError("INVALID_INPUT", problem);
  const cleaned = cleanTagName(name);
  const key = tagKey(cleaned);
  const now = new Date().toISOString();
  const renamed = await inTransaction(db, async (transaction) => {
    const tag = await findTagById(transaction, id);
    if (!tag) throw new AppError("NOT_FOUND", "No tag has that id.");
    const holder = await findTagByKey(transaction, key);
    if (holder && holder.id !== tag.id) {
      throw new AppError("CONFLICT", `A tag named “${holder.name}” already exists. Merge the two tags instead.`);
    }
    await updateTag(transaction, tag.id, { name: cleaned, key });
    await insertAuditEntry(
      transaction,
      { actorId: user.id, action: "tag.rename", targetId: tag.id, details: { before: { name: tag.name, key: tag.key }, after: { name: cleaned, key } } },
      now,
    );
    return { ...tag, name: cleaned, key };
  });
  afterChange();
  return toView(renamed);
}

/**
 * Merges the source tags into the target (admins only): the target gets every photo they had
 * (a photo with both keeps one row), and the sources are gone. One transaction, one audit row.
 */
export async function mergeTags(db: DatabaseHandle, admin: Actor, sourceIds: string[], targetId: string): Promise<TagWithCount> {
  const user = assertAdmin(asViewer(admin));
  const sources = [...new Set(sourceIds)].filter((id) => id !== targetId);
  if (sources.length === 0) throw new AppError("INVALID_INPUT", "Choose at least one other tag to merge into this one.");
  const now = new Date().toISOString();
  const merged = await inTransaction(db, async (transaction) => {
    const target = await findTagById(transaction, targetId);
    const found = await findTagsByIds(transaction, sources);
    if (!target || found.length !== sources.length) throw new AppError("NOT_FOUND", "No tag has that id.");
    const counts = new Map((await listAllTagsWithCounts(transaction)).map((tag) => [tag.id, tag.count]));
    await copyPhotoTags(transaction, sources, target.id);
    await deleteTags(transaction, sources);
    const count = (await listAllTagsWithCounts(transaction)).find((tag) => tag.id === target.id)?.count ?? 0;
    await insertAuditEntry(
      transaction,
      {
        actorId: user.id,
        action: "tag.merge",
        targetId: target.id,
        details: {
          before: { target: { name: target.name, photos: counts.get(target.id) ?? 0 }, sources: found.map((tag) => ({ id: tag.id, name: tag.name, photos: counts.get(tag.id) ?? 0 })) },
          after: { target: { name: target.name, photos: count } },
        },
      },
      now,
    );
    return { ...toView(target), count };
  });
  afterChange();
  return merged;
}
