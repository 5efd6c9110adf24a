import "server-only";
import { withoutControlCharacters } from "@/src/validation/input-text";
import { generateKeyBetween, generateNKeysBetween } from "fractional-indexing";
import { hasRole } from "@/src/access/roles";
import { type SessionUser, toViewer, type Viewer } from "@/src/access/viewer";
import { insertAuditEntry } from "@/src/audit/audit.repository";
import type { DatabaseHandle } from "@/src/db/client";
import { decodeKeysetCursor, encodeKeysetCursor } from "@/src/db/keyset-cursor";
import type { AlbumRow, AlbumUpdate, PhotoRow } from "@/src/db/database";
import { isUniqueViolation } from "@/src/db/errors";
import { inTransaction } from "@/src/db/transaction";
import { AppError } from "@/src/errors/app-error";
import { type PhotoListAccess, photoListAccessOf } from "@/src/photos/listable-photos";
import { canEditPhoto, canViewPhoto } from "@/src/photos/photo-access";
import { announcePhotosChanged } from "@/src/photos/photo-changes";
import { listVariants } from "@/src/photos/photos.repository";
import { type PhotoSummary, toSummary } from "@/src/photos/photos.service";
import { albumListAccessOf, canEditAlbum, canViewAlbum } from "./album-access";
import { countSubAlbumPhotosRemembered, countVisibleAlbumPhotosRemembered } from "./album-counts";
import {
  type AlbumPosition,
  countAlbumPhotosBefore,
  countAlbumRows,
  deleteAlbumPhotos,
  deleteAlbumRow,
  detachChildAlbums,
  findAlbumById,
  findAlbumByOldSlug,
  findAlbumBySlug,
  findLastOrderKey,
  findNextOrderKey,
  findOrderKeysAt,
  findVisibleAlbumPhoto,
  forgetOldSlug,
  insertAlbum,
  insertAlbumPhotos,
  isSlugTaken,
  keepOldSlug,
  listAlbumMembers,
  listAlbumPhotoPage,
  listAlbumsByOwner,
  listAlbumsByParent,
  listAlbumsHoldingPhoto as listAlbumRowsHoldingPhoto,
  listChildAlbumIds,
  listPhotosForAlbum,
  listVisibleCovers,
  sortKeyOf,
  updateAlbumRow,
  updateOrderKey,
} from "./albums.repository";
import {
  ALBUM_SLUG_PATTERN,
  type AlbumChanges,
  type AlbumCrumb,
  type AlbumInput,
  type AlbumLookup,
  type AlbumMoveTarget,
  type AlbumSort,
  type AlbumSummary,
  MAX_ALBUM_DEPTH,
  MAX_ALBUM_PHOTOS_PER_REQUEST,
  MAX_ALBUM_SLUG_LENGTH,
} from "./albums.types";
import { loadSubAlbumTree } from "./sub-albums";

// Who may open, change and list an album is src/albums/album-access.ts; which photos inside it a
// reader sees is the gallery's own list rule (src/photos/listable-photos.ts), so an album never
// widens who may see a photo.

const NOT_FOUND_MESSAGE = "No album has that id.";

function requireEditor(user: SessionUser): void {
  if (!hasRole(user.role, "editor")) throw new AppError("FORBIDDEN", "Only editors and admins can change albums.");
}

/** The album, or 404 when it does not exist or the viewer may not see it (the two look the same). */
async function getVisibleAlbum(db: DatabaseHandle, viewer: Viewer, id: string): Promise<AlbumRow> {
  const album = await findAlbumById(db, id);
  if (!album || !canViewAlbum(viewer, album)) throw new AppError("NOT_FOUND", NOT_FOUND_MESSAGE);
  return album;
}

async function getEditableAlbum(db: DatabaseHandle, user: SessionUser, id: string): Promise<AlbumRow> {
  const viewer = toViewer(user);
  const album = await getVisibleAlbum(db, viewer, id);
  requireEditor(user);
  if (!canEditAlbum(viewer, album)) throw new AppError("FORBIDDEN", "Only the album's owner or an admin can change it.");
  return album;
}

async function withVariants(db: DatabaseHandle, rows: PhotoRow[]): Promise<PhotoSummary[]> {
  const variants = await listVariants(db, rows.map((row) => row.id));
  return rows.map((row) => toSummary(row, variants.filter((variant) => variant.photo_id === row.id)));
}

/**
 * The album's own cover for this reader: the chosen one if they may see it, else the first photo
 * they may see in its order. `visibleCount` 0 asks nothing; `chosen` is the chosen cover when
 * already looked up (null: none they may see).
 */
async function ownCoverRow(db: DatabaseHandle, album: AlbumRow, access: PhotoListAccess, visibleCount: number | undefined, chosen?: PhotoRow | null): Promise<PhotoRow | null> {
  if (visibleCount === 0) return null;
  if (chosen === undefined && album.cover_photo_id !== null) {
    [chosen] = await listVisibleCovers(db, [{ id: album.id, coverPhotoId: album.cover_photo_id }], access);
  }
  if (chosen) return chosen;
  const [first] = await listAlbumPhotoPage(db, { albumId: album.id, sort: album.sort, access, limit: 1 });
  return first ?? null;
}

/**
 * Albums as this viewer sees them: counts and covers of only the photos they may see. An album
 * without a photo of its own for this viewer shows the cover of its first sub-album that has one
 * (depth first, in the order its page lists them), and every album says how many photos its
 * sub-albums hold, each once; only sub-albums this viewer may list count (src/albums/sub-albums.ts).
 */
async function summarise(db: DatabaseHandle, viewer: Viewer, albums: AlbumRow[]): Promise<AlbumSummary[]> {
  if (albums.length === 0) return [];
  const access = photoListAccessOf(viewer);
  const chosen = albums.filter((album) => album.cover_photo_id !== null).map((album) => ({ id: album.id, coverPhotoId: album.cover_photo_id as string }));
  const [tree, chosenCovers] = await Promise.all([loadSubAlbumTree(db, viewer, albums.map((album) => album.id)), listVisibleCovers(db, chosen, access)]);
  // Counted for the listed albums only: a sub-album's own count is not shown, and a longer list of
  // albums would turn the count's plan (tests/query-plans.test.ts) from album_photos to photos.
  const counts = await countVisibleAlbumPhotosRemembered(db, albums.map((album) => album.id), access);
  const countOf = (albumId: string) => counts.get(albumId) ?? 0;
  const listed = new Set(albums.map((album) => album.id));
  const chosenRows = new Map<string, PhotoRow>(chosenCovers.map((row) => [row.album_id, row]));

  // Each album's own cover is looked up at most once, however many ancestors ask for it.
  const ownCovers = new Map<string, Promise<PhotoRow | null>>();
  const ownCoverOf = (album: AlbumRow) => {
    let cover = ownCovers.get(album.id);
    if (!cover) {
      cover = listed.has(album.id) ? ownCoverRow(db, album, access, countOf(album.id), chosenRows.get(album.id) ?? null) : ownCoverRow(db, album, access, undefined);
      ownCovers.set(album.id, cover);
    }
    return cover;
  };
  const coverOf = async (album: AlbumRow, path: Set<string>): Promise<PhotoRow | null> => {
    const own = await ownCoverOf(album);
    if (own) return own;
    for (const child of tree.childrenOf(album.id)) {
      if (path.has(child.id)) continue;
      const found = await coverOf(child, new Set([...path, child.id]));
      if (found) return found;
    }
    return null;
  };

  const [coverRows, subAlbumCounts] = await Promise.all([
    Promise.all(albums.map((album) => coverOf(album, new Set([album.id])))),
    Promise.all(
      albums.map((album) => {
        const below = tree.descendantIdsOf(album.id);
        return below.length === 0 ? 0 : countSubAlbumPhotosRemembered(db, album.id, below, access);
      }),
    ),
  ]);
  const covers = await withVariants(db, [...new Map(coverRows.filter((row) => row !== null).map((row) => [row.id, row])).values()]);
  const coverById = new Map(covers.map((cover) => [cover.id, cover]));
  return albums.map((album, index) => {
    const canEdit = canEditAlbum(viewer, album);
    const cover = coverRows[index];
    return {
      id: album.id,
      slug: album.slug,
      title: album.title,
      description: album.description,
      visibility: album.visibility,
      parentId: album.parent_id,
      sort: album.sort,
      photoCount: countOf(album.id),
      subAlbumPhotoCount: subAlbumCounts[index],
      cover: cover ? (coverById.get(cover.id) ?? null) : null,
      coverPhotoId: canEdit ? album.cover_photo_id : null,
      canEdit,
      createdAt: album.created_at,
      updatedAt: album.updated_at,
    };
  });
}

async function summariseOne(db: DatabaseHandle, viewer: Viewer, album: AlbumRow): Promise<AlbumSummary> {
  const [summary] = await summarise(db, viewer, [album]);
  return summary;
}

/** The albums under a parent (null: the top level, /albums) that this viewer may list. Unlisted albums of others never are. */
export async function listAlbumsForViewer(db: DatabaseHandle, viewer: Viewer, options: { parentId: string | null }): Promise<AlbumSummary[]> {
  if (options.parentId !== null) await getVisibleAlbum(db, viewer, options.parentId);
  const rows = await listAlbumsByParent(db, options.parentId, albumListAccessOf(viewer));
  // Checked again row by row: a list never shows an album its page would not.
  return summarise(db, viewer, rows.filter((row) => canViewAlbum(viewer, row)));
}

/** Every album this editor may change: their own; every album for admins. */
export async function listManageableAlbums(db: DatabaseHandle, user: SessionUser): Promise<AlbumSummary[]> {
  requireEditor(user);
  const rows = await listAlbumsByOwner(db, user.role === "admin" ? null : user.id);
  return summarise(db, toViewer(user), rows);
}

/** The ancestors the viewer may see, top level first; stops below the first one they may not. */
async function breadcrumbsOf(db: DatabaseHandle, viewer: Viewer, album: AlbumRow): Promise<AlbumCrumb[]> {
  const crumbs: AlbumCrumb[] = [];
  let parentId = album.parent_id;
  for (let level = 1; parentId !== null && level < MAX_ALBUM_DEPTH + 1; level += 1) {
    const parent = await findAlbumById(db, parentId);
    if (!parent || !canViewAlbum(viewer, parent)) break;
    crumbs.unshift({ slug: parent.slug, title: parent.title });
    parentId = parent.parent_id;
  }
  return crumbs;
}

/** The album page's data by slug; an old slug answers "moved" with the current one. */
export async function findAlbumBySlugForViewer(db: DatabaseHandle, viewer: Viewer, slug: string): Promise<AlbumLookup> {
  const album = await findAlbumBySlug(db, slug);
  if (!album) {
    const renamed = await findAlbumByOldSlug(db, slug);
    if (renamed && canViewAlbum(viewer, renamed)) return { kind: "moved", slug: renamed.slug };
    throw new AppError("NOT_FOUND", "No album has that address.");
  }
  if (!canViewAlbum(viewer, album)) throw new AppError("NOT_FOUND", "No album has that address.");
  const childRows = await listAlbumsByParent(db, album.id, albumListAccessOf(viewer));
  const [summary, breadcrumbs, children] = await Promise.all([summariseOne(db, viewer, album), breadcrumbsOf(db, viewer, album), summarise(db, viewer, childRows)]);
  return { kind: "album", album: summary, breadcrumbs, children };
}

export async function findAlbumByIdForViewer(db: DatabaseHandle, viewer: Viewer, id: string): Promise<AlbumSummary> {
  return summariseOne(db, viewer, await getVisibleAlbum(db, viewer, id));
}

const DEFAULT_PAGE_SIZE = 60;
const MAX_PAGE_SIZE = 200;

const STALE_ALBUM_CURSOR = "The cursor is not valid (or the album's order changed since): start again without it.";

function encodeCursor(sort: AlbumSort, position: AlbumPosition): string {
  return encodeKeysetCursor(sort, position.key, position.photoId);
}

function decodeCursor(sort: AlbumSort, cursor: string): AlbumPosition {
  const [cursorSort, key, photoId] = decodeKeysetCursor(cursor, 3, STALE_ALBUM_CURSOR);
  if (cursorSort !== sort) throw new AppError("BAD_REQUEST", STALE_ALBUM_CURSOR);
  return { key, photoId };
}

/** One page of the album's photos that this viewer may see, in the album's sort. */
export async function listAlbumPhotosForViewer(
  db: DatabaseHandle,
  viewer: Viewer,
  albumId: string,
  options: { cursor?: string; limit?: number },
): Promise<{ photos: PhotoSummary[]; nextCursor: string | null }> {
  const album = await getVisibleAlbum(db, viewer, albumId);
  const limit = Math.max(1, Math.min(Math.floor(options.limit ?? DEFAULT_PAGE_SIZE), MAX_PAGE_SIZE));
  const rows = await listAlbumPhotoPage(db, {
    albumId,
    sort: album.sort,
    access: photoListAccessOf(viewer),
    after: options.cursor ? decodeCursor(album.sort, options.cursor) : undefined,
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    photos: await withVariants(db, page),
    nextCursor: rows.length > limit ? encodeCursor(album.sort, { key: sortKeyOf(last, album.sort), photoId: last.id }) : null,
  };
}

/** The photos either side of this one in the album's order, among those the viewer may see. */
export async function findAlbumNeighbours(
  db: DatabaseHandle,
  viewer: Viewer,
  albumId: string,
  photoId: string,
): Promise<{ previousId: string | null; nextId: string | null }> {
  const album = await getVisibleAlbum(db, viewer, albumId);
  const access = photoListAccessOf(viewer);
  const row = await findVisibleAlbumPhoto(db, albumId, photoId, access);
  if (!row) throw new AppError("NOT_FOUND", "That photo is not in this album.");
  const position = { key: sortKeyOf(row, album.sort), photoId: row.id };
  const [[previous], [next]] = await Promise.all([
    listAlbumPhotoPage(db, { albumId, sort: album.sort, access, after: position, reverse: true, limit: 1 }),
    listAlbumPhotoPage(db, { albumId, sort: album.sort, access, after: position, limit: 1 }),
  ]);
  return { previousId: previous?.id ?? null, nextId: next?.id ?? null };
}

/** The photo's place in the album's order among the photos this viewer may see there, and how many that is ("3 / 24"). */
export async function findAlbumPosition(db: DatabaseHandle, viewer: Viewer, albumId: string, photoId: string): Promise<{ index: number; total: number }> {
  const album = await getVisibleAlbum(db, viewer, albumId);
  const access = photoListAccessOf(viewer);
  const row = await findVisibleAlbumPhoto(db, albumId, photoId, access);
  if (!row) throw new AppError("NOT_FOUND", "That photo is not in this album.");
  const position = { key: sortKeyOf(row, album.sort), photoId: row.id };
  const [before, counts] = await Promise.all([countAlbumPhotosBefore(db, { albumId, sort: album.sort, access, position }), countVisibleAlbumPhotosRemembered(db, [albumId], access)]);
  return { index: before + 1, total: counts.get(albumId) ?? 0 };
}

/** The albums holding this photo that the viewer may list (for the photo page); none when they may not see the photo. */
export async function listAlbumsHoldingPhoto(db: DatabaseHandle, viewer: Viewer, photoId: string): Promise<AlbumCrumb[]> {
  const [photo] = await listPhotosForAlbum(db, [photoId]);
  if (!photo || !canViewPhoto(viewer, photo)) return [];
  const rows = await listAlbumRowsHoldingPhoto(db, photoId, albumListAccessOf(viewer));
  return rows.map((row) => ({ slug: row.slug, title: row.title }));
}

// ---- Changes -------------------------------------------------------------------------------

function cleanTitle(title: string): string {
  const clean = withoutControlCharacters(title);
  if (clean.length === 0 || clean.length > 200) throw new AppError("INVALID_INPUT", "An album's title must be 1 to 200 characters.");
  return clean;
}

function checkSlug(slug: string): string {
  if (slug.length > MAX_ALBUM_SLUG_LENGTH || !ALBUM_SLUG_PATTERN.test(slug)) {
    throw new AppError("INVALID_INPUT", `A slug is lower-case letters and digits in words joined by hyphens, at most ${MAX_ALBUM_SLUG_LENGTH} characters.`);
  }
  return slug;
}

/** "Summer in Łódź!" → "summer-in-lodz". */
export function slugFromTitle(title: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/ł/g, "l")
    .replace(/Ł/g, "l")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_ALBUM_SLUG_LENGTH - 4)
    .replace(/-+$/g, "");
  return slug || "album";
}

/** A slug from the title that no album answers to, now or as an old slug. */
async function freeSlugFromTitle(db: DatabaseHandle, title: string): Promise<string> {
  const base = slugFromTitle(title);
  for (let attempt = 1; attempt < 1000; attempt += 1) {
    const candidate = attempt === 1 ? base : `${base}-${attempt}`;
    if (!(await isSlugTaken(db, candidate))) return candidate;
  }
  throw new AppError("CONFLICT", "No free slug could be made from that title: give one.");
}

/** How many levels the album and the albums under it take (1: no children). */
async function subtreeHeight(db: DatabaseHandle, albumId: string): Promise<{ height: number; ids: Set<string> }> {
  const ids = new Set([albumId]);
  let level = [albumId];
  let height = 1;
  while (height <= MAX_ALBUM_DEPTH) {
    const children = (await listChildAlbumIds(db, level)).filter((id) => !ids.has(id));
    if (children.length === 0) break;
    children.forEach((id) => ids.add(id));
    level = children;
    height += 1;
  }
  return { height, ids };
}

/** The levels above and including this album (1: a top-level album). */
async function depthOf(db: DatabaseHandle, album: AlbumRow): Promise<{ depth: number; ancestorIds: Set<string> }> {
  const ancestorIds = new Set([album.id]);
  let depth = 1;
  let parentId = album.parent_id;
  while (parentId !== null && depth <= MAX_ALBUM_DEPTH + 1) {
    if (ancestorIds.has(parentId)) break;
    ancestorIds.add(parentId);
    depth += 1;
    parentId = (await findAlbumById(db, parentId))?.parent_id ?? null;
  }
  return { depth, ancestorIds };
}

/** The parent an album may go under: one the user may edit, not itself or below it, within the depth limit. */
async function checkParent(db: DatabaseHandle, user: SessionUser, parentId: string, albumId: string | null): Promise<AlbumRow> {
  const viewer = toViewer(user);
  const parent = await findAlbumById(db, parentId);
  if (!parent || !canViewAlbum(viewer, parent)) throw new AppError("NOT_FOUND", "No parent album has that id.");
  if (!canEditAlbum(viewer, parent)) throw new AppError("FORBIDDEN", "Albums go only under albums you may change.");
  const { depth, ancestorIds } = await depthOf(db, parent);
  const { height } = albumId === null ? { height: 1 } : await subtreeHeight(db, albumId);
  if (albumId !== null && ancestorIds.has(albumId)) throw new AppError("INVALID_INPUT", "An album cannot go inside itself or an album below it.");
  if (depth + height > MAX_ALBUM_DEPTH) throw new AppError("INVALID_INPUT", `Albums nest at most ${MAX_ALBUM_DEPTH} levels deep.`);
  return parent;
}

function auditView(album: AlbumRow) {
  return {
    slug: album.slug,
    title: album.title,
    description: album.description,
    visibility: album.visibility,
    parentId: album.parent_id,
    sort: album.sort,
    coverPhotoId: album.cover_photo_id,
  };
}

/** Runs a change that may lose a race on a unique key, again from the start (a fresh transaction), a few times. */
async function retryOnClash<T>(db: DatabaseHandle, work: () => Promise<T>, clash: AppError): Promise<T> {
  // Inside a caller's transaction a failed statement may have aborted it (PostgreSQL): no retry there.
  const attempts = db.isTransaction ? 1 : 20;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      if (attempt >= attempts) throw clash;
      // Each round at least one of the clashing writers wins; a little jitter spreads the rest.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * attempt));
    }
  }
}

function conflictOnUnique<T>(promise: Promise<T>, message: string): Promise<T> {
  return promise.catch((error: unknown) => {
    if (isUniqueViolation(error)) throw new AppError("CONFLICT", message);
    throw error;
  });
}

/**
 * Lets the album `albumId` (null: one being created) take `slug` as its address, or refuses with
 * 409: another album has it now, or had it before a rename. A retired address stays with its
 * album for good (it redirects there), so the links people saved never show someone else's
 * album. The album's own old address it may take back: it stops redirecting.
 */
async function claimSlug(transaction: DatabaseHandle, slug: string, albumId: string | null): Promise<void> {
  if (await findAlbumBySlug(transaction, slug)) throw new AppError("CONFLICT", "Another album has that slug.");
  const retiredFrom = await findAlbumByOldSlug(transaction, slug);
  if (retiredFrom && retiredFrom.id !== albumId) {
    throw new AppError("CONFLICT", "Another album had that slug before it was renamed, and its old links still lead to it: choose another.");
  }
  if (retiredFrom) await forgetOldSlug(transaction, slug);
}

export async function createAlbum(db: DatabaseHandle, user: SessionUser, input: AlbumInput): Promise<AlbumSummary> {
  requireEditor(user);
  const title = cleanTitle(input.title);
  const slug = input.slug === undefined ? undefined : checkSlug(input.slug);
  const id = crypto.randomUUID();
  await conflictOnUnique(
    inTransaction(db, async (transaction) => {
      if (input.parentId) await checkParent(transaction, user, input.parentId, null);
      const now = new Date().toISOString();
      if (slug !== undefined) await claimSlug(transaction, slug, null);
      const row = {
        id,
        owner_id: user.id,
        slug: slug ?? (await freeSlugFromTitle(transaction, title)),
        title,
        description: (input.description ?? "").trim(),
        visibility: input.visibility ?? "private",
        parent_id: input.parentId ?? null,
        sort: input.sort ?? "manual",
        cover_photo_id: null,
        created_at: now,
        updated_at: now,
      } satisfies AlbumRow;
      await insertAlbum(transaction, row);
      await insertAuditEntry(transaction, { actorId: user.id, action: "album.create", targetId: id, details: { before: null, after: auditView(row) } }, now);
    }),
    "Another album has that slug.",
  );
  // Album changes touch no photo's own row: no photo named, so caches of lists and counts drop
  // themselves while the map, which holds only photos' rows, keeps its index (so below too).
  announcePhotosChanged([]);
  return findAlbumByIdForViewer(db, toViewer(user), id);
}

export async function updateAlbum(db: DatabaseHandle, user: SessionUser, albumId: string, input: AlbumChanges): Promise<AlbumSummary> {
  await getEditableAlbum(db, user, albumId);
  const title = input.title === undefined ? undefined : cleanTitle(input.title);
  const slug = input.slug === undefined ? undefined : checkSlug(input.slug);
  await conflictOnUnique(
    inTransaction(db, async (transaction) => {
      // Read again inside the transaction: what the audit row calls "before".
      const album = await getEditableAlbum(transaction, user, albumId);
      const now = new Date().toISOString();
      if (input.parentId !== undefined && input.parentId !== null && input.parentId !== album.parent_id) {
        await checkParent(transaction, user, input.parentId, album.id);
      }
      if (input.coverPhotoId !== undefined && input.coverPhotoId !== null) {
        const cover = await findVisibleAlbumPhoto(transaction, album.id, input.coverPhotoId, photoListAccessOf(toViewer(user)));
        if (!cover) throw new AppError("INVALID_INPUT", "The cover must be a photo in the album.");
      }
      if (slug !== undefined && slug !== album.slug) {
        await claimSlug(transaction, slug, album.id);
        await keepOldSlug(transaction, album.slug, album.id, now);
      }
      const changes: AlbumUpdate = {
        ...(title !== undefined && { title }),
        ...(slug !== undefined && { slug }),
        ...(input.description !== undefined && { description: input.description.trim() }),
        ...(input.visibility !== undefined && { visibility: input.visibility }),
        ...(input.parentId !== undefined && { parent_id: input.parentId }),
        ...(input.sort !== undefined && { sort: input.sort }),
        ...(input.coverPhotoId !== undefined && { cover_photo_id: input.coverPhotoId }),
        updated_at: now,
      };
      await updateAlbumRow(transaction, album.id, changes);
      const after = { ...album, ...changes } as AlbumRow;
      await insertAuditEntry(
        transaction,
        { actorId: user.id, action: "album.update", targetId: album.id, details: { before: auditView(album), after: auditView(after) } },
        now,
      );
    }),
    "Another album has that slug.",
  );
  announcePhotosChanged([]);
  return findAlbumByIdForViewer(db, toViewer(user), albumId);
}

/** Deletes the album; its photos stay, its child albums become top-level ones. */
export async function deleteAlbum(db: DatabaseHandle, user: SessionUser, albumId: string): Promise<void> {
  await getEditableAlbum(db, user, albumId);
  await inTransaction(db, async (transaction) => {
    const album = await getEditableAlbum(transaction, user, albumId);
    const now = new Date().toISOString();
    const photoCount = await countAlbumRows(transaction, album.id);
    await detachChildAlbums(transaction, album.id, now);
    await deleteAlbumRow(transaction, album.id);
    await insertAuditEntry(
      transaction,
      { actorId: user.id, action: "album.delete", targetId: album.id, details: { before: { ...auditView(album), photoCount }, after: null } },
      now,
    );
  });
  announcePhotosChanged([]);
}

function uniqueIds(photoIds: string[]): string[] {
  const ids = [...new Set(photoIds)];
  if (ids.length === 0) throw new AppError("INVALID_INPUT", "Name at least one photo.");
  if (ids.length > MAX_ALBUM_PHOTOS_PER_REQUEST) throw new AppError("INVALID_INPUT", `At most ${MAX_ALBUM_PHOTOS_PER_REQUEST} photos at a time.`);
  return ids;
}

/** Appends photos to the album's manual order; ones already in it are skipped. Every photo must be one the user may change. */
export async function addPhotosToAlbum(db: DatabaseHandle, user: SessionUser, albumId: string, photoIds: string[]): Promise<{ added: number }> {
  await getEditableAlbum(db, user, albumId);
  const ids = uniqueIds(photoIds);
  const viewer = toViewer(user);
  const photos = await listPhotosForAlbum(db, ids);
  const byId = new Map(photos.map((photo) => [photo.id, photo]));
  for (const id of ids) {
    const photo = byId.get(id);
    // Unknown, trashed and unseen photos look alike: the user never learns which ids exist.
    if (!photo || !canViewPhoto(viewer, photo)) throw new AppError("NOT_FOUND", "No photo has that id.");
    if (!canEditPhoto(viewer, photo)) throw new AppError("FORBIDDEN", "Only photos you may change can be added to an album.");
  }
  const added = await retryOnClash(
    db,
    () =>
      inTransaction(db, async (transaction) => {
        const album = await getEditableAlbum(transaction, user, albumId);
        const present = await listAlbumMembers(transaction, album.id, ids);
        const fresh = ids.filter((id) => !present.has(id));
        const now = new Date().toISOString();
        const keys = generateNKeysBetween(await findLastOrderKey(transaction, album.id), null, fresh.length);
        await insertAlbumPhotos(
          transaction,
          fresh.map((id, index) => {
            const photo = byId.get(id) as PhotoRow;
            return { album_id: album.id, photo_id: id, order_key: keys[index], photo_sort_at: photo.sort_at, photo_created_at: photo.created_at, added_at: now };
          }),
        );
        await updateAlbumRow(transaction, album.id, { updated_at: now });
        await insertAuditEntry(
          transaction,
          { actorId: user.id, action: "album.photos-add", targetId: album.id, details: { before: { present: [...present] }, after: { added: fresh } } },
          now,
        );
        return fresh.length;
      }),
    new AppError("CONFLICT", "The album changed while the photos were added: try again."),
  );
  announcePhotosChanged([]);
  return { added };
}

/** Takes photos out of the album (the photos stay). Ids of photos the user may not see answer 404. */
export async function removePhotosFromAlbum(db: DatabaseHandle, user: SessionUser, albumId: string, photoIds: string[]): Promise<{ removed: number }> {
  await getEditableAlbum(db, user, albumId);
  const ids = uniqueIds(photoIds);
  const viewer = toViewer(user);
  const photos = await listPhotosForAlbum(db, ids);
  const byId = new Map(photos.map((photo) => [photo.id, photo]));
  for (const id of ids) {
    const photo = byId.get(id);
    if (!photo || !canViewPhoto(viewer, photo)) throw new AppError("NOT_FOUND", "No photo has that id.");
  }
  const removed = await inTransaction(db, async (transaction) => {
    const album = await getEditableAlbum(transaction, user, albumId);
    const now = new Date().toISOString();
    const gone = [...(await listAlbumMembers(transaction, album.id, ids))];
    await deleteAlbumPhotos(transaction, album.id, gone);
    const coverGone = album.cover_photo_id !== null && gone.includes(album.cover_photo_id);
    await updateAlbumRow(transaction, album.id, { updated_at: now, ...(coverGone && { cover_photo_id: null }) });
    await insertAuditEntry(
      transaction,
      {
        actorId: user.id,
        action: "album.photos-remove",
        targetId: album.id,
        details: { before: { photoIds: gone, coverPhotoId: album.cover_photo_id }, after: { removed: gone.length, coverPhotoId: coverGone ? null : album.cover_photo_id } },
      },
      now,
    );
    return gone.length;
  });
  announcePhotosChanged([]);
  return { removed };
}

/** The keys either side of the new place, leaving out the photo being moved. */
async function neighbourKeys(db: DatabaseHandle, user: SessionUser, albumId: string, photoId: string, to: AlbumMoveTarget): Promise<[string | null, string | null]> {
  const access = photoListAccessOf(toViewer(user));
  const anchorKey = async (anchorId: string) => {
    if (anchorId === photoId) throw new AppError("INVALID_INPUT", "A photo cannot move next to itself.");
    const anchor = await findVisibleAlbumPhoto(db, albumId, anchorId, access);
    if (!anchor) throw new AppError("INVALID_INPUT", "The photo to move next to is not in this album.");
    return anchor.order_key;
  };
  if ("position" in to) {
    if (!Number.isInteger(to.position) || to.position < 0) throw new AppError("INVALID_INPUT", "A position is a whole number from 0.");
    if (to.position === 0) return [null, await findNextOrderKey(db, albumId, null, "after", photoId)];
    const [before, after] = await findOrderKeysAt(db, albumId, to.position - 1, photoId);
    // Past the end: the last place.
    if (before === undefined) return [await findNextOrderKey(db, albumId, null, "before", photoId), null];
    return [before, after ?? null];
  }
  if ("after" in to) {
    if (to.after === null) return [null, await findNextOrderKey(db, albumId, null, "after", photoId)];
    const key = await anchorKey(to.after);
    return [key, await findNextOrderKey(db, albumId, key, "after", photoId)];
  }
  if (to.before === null) return [await findNextOrderKey(db, albumId, null, "before", photoId), null];
  const key = await anchorKey(to.before);
  return [await findNextOrderKey(db, albumId, key, "before", photoId), key];
}

/**
 * Moves one photo in the album's manual order by giving it a key between its new neighbours: one
 * row written, however long the album. Two editors moving photos to the same place at once would
 * make the same key; the unique (album_id, order_key) refuses the second, which reads the
 * neighbours again and retries.
 */
export async function movePhotoInAlbum(db: DatabaseHandle, user: SessionUser, albumId: string, photoId: string, to: AlbumMoveTarget): Promise<void> {
  await getEditableAlbum(db, user, albumId);
  await retryOnClash(
    db,
    () =>
      inTransaction(db, async (transaction) => {
        const album = await getEditableAlbum(transaction, user, albumId);
        const moving = await findVisibleAlbumPhoto(transaction, album.id, photoId, photoListAccessOf(toViewer(user)));
        if (!moving) throw new AppError("INVALID_INPUT", "The photo to move is not in this album.");
        const [low, high] = await neighbourKeys(transaction, user, album.id, photoId, to);
        const now = new Date().toISOString();
        // Already there: nothing to write but the audit row.
        const unchanged = (low === null || low < moving.order_key) && (high === null || moving.order_key < high);
        const key = unchanged ? moving.order_key : generateKeyBetween(low, high);
        if (!unchanged) await updateOrderKey(transaction, album.id, photoId, key);
        await insertAuditEntry(
          transaction,
          { actorId: user.id, action: "album.reorder", targetId: album.id, details: { before: { photoId, orderKey: moving.order_key }, after: { photoId, orderKey: key, to } } },
          now,
        );
      }),
    new AppError("CONFLICT", "The album kept changing while the photo was moved: try again."),
  );
  announcePhotosChanged([]);
}
