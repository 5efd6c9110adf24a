// An album's manual order at size: 10,000 photos inserted in bulk (no uploads), moved about, paged
// through by keyset; every photo once, in order; one row written per move; concurrent moves never
// lose or duplicate a photo. On a freshly migrated database of the run's kind.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type SessionUser, toViewer } from "@/src/access/viewer";
import { addPhotosToAlbum, createAlbum, listAlbumPhotosForViewer, movePhotoInAlbum } from "@/src/albums/albums.service";
import type { AlbumMoveTarget } from "@/src/albums/albums.types";
import type { DatabaseHandle } from "@/src/db/client";
import { openFreshDatabase } from "./helpers/test-database";

const editor: SessionUser = { id: "order-editor", email: "order-editor@example.test", name: "Editor", role: "editor" };
const SIZE = 10_000;

let db: DatabaseHandle;
let remove: () => Promise<void>;
let albumId: string;
/** The order the album should have: what every move did to it, applied here too. */
let model: string[];

const photoId = (index: number) => `order-${String(index).padStart(5, "0")}`;

/** Photos straight into the table, a few hundred rows per statement. */
async function insertPhotos(count: number): Promise<string[]> {
  const now = new Date().toISOString();
  const ids = Array.from({ length: count }, (_, index) => photoId(index));
  for (let start = 0; start < count; start += 500) {
    await db
      .insertInto("photos")
      .values(
        ids.slice(start, start + 500).map((id, offset) => {
          const at = new Date(Date.UTC(2020, 0, 1) + (start + offset) * 60_000).toISOString();
          return {
            id, owner_id: editor.id, sha256: id, status: "ready" as const, visibility: "public" as const, original_key: `originals/${id}`, original_name: `${id}.jpg`,
            original_type: "image/jpeg", original_size: 1, width: 300, height: 200, sort_at: at, created_at: at, updated_at: now,
          };
        }),
      )
      .execute();
  }
  return ids;
}

/** A small seeded random number generator, so a failure can be replayed. */
function randomFrom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

function applyToModel(photo: string, to: AlbumMoveTarget): void {
  model.splice(model.indexOf(photo), 1);
  if ("position" in to) model.splice(Math.min(to.position, model.length), 0, photo);
  else if ("after" in to) model.splice(to.after === null ? 0 : model.indexOf(to.after) + 1, 0, photo);
  else model.splice(to.before === null ? model.length : model.indexOf(to.before), 0, photo);
}

async function move(photo: string, to: AlbumMoveTarget): Promise<void> {
  await movePhotoInAlbum(db, editor, albumId, photo, to);
  applyToModel(photo, to);
}

async function orderInDatabase(): Promise<Array<{ photo_id: string; order_key: string }>> {
  return db.selectFrom("album_photos").select(["photo_id", "order_key"]).where("album_id", "=", albumId).execute();
}

beforeAll(async () => {
  ({ db, remove } = await openFreshDatabase(inject("databaseKind")));
  const now = new Date().toISOString();
  await db.insertInto("users").values({ id: editor.id, email: editor.email, name: editor.name, role: editor.role, password_hash: null, disabled_at: null, session_version: 1, created_at: now, updated_at: now }).execute();
  const ids = await insertPhotos(SIZE);
  albumId = (await createAlbum(db, editor, { title: "Ten thousand", visibility: "public" })).id;
  for (let start = 0; start < SIZE; start += 500) await addPhotosToAlbum(db, editor, albumId, ids.slice(start, start + 500));
  model = ids;
}, 240_000);
afterAll(() => remove());

describe("a 10,000-photo album in manual order", () => {
  it("pages through every photo once, in order, after moves before and between its pages", async () => {
    const random = randomFrom(7);
    const pick = () => model[Math.floor(random() * model.length)];
    for (let step = 0; step < 150; step += 1) {
      const photo = pick();
      const kind = step % 5;
      let anchor = pick();
      while (anchor === photo) anchor = pick();
      const to: AlbumMoveTarget =
        kind === 0 ? { after: anchor } : kind === 1 ? { before: anchor } : kind === 2 ? { position: Math.floor(random() * SIZE) } : kind === 3 ? { after: null } : { before: null };
      await move(photo, to);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await listAlbumPhotosForViewer(db, toViewer(editor), albumId, { limit: 200, cursor });
      seen.push(...page.photos.map((photo) => photo.id));
      cursor = page.nextCursor ?? undefined;
      pages += 1;
      // Between pages, a photo not yet reached moves to another place not yet reached: the pages
      // already read stay as they were and the rest follows the new order.
      if (cursor && pages % 10 === 0 && model.length - seen.length > 2) {
        const ahead = model.slice(seen.length);
        await move(ahead[ahead.length - 1], { after: ahead[0] });
        await move(ahead[1], { before: null });
      }
    } while (cursor);
    expect(pages).toBe(SIZE / 200);
    expect(new Set(seen).size).toBe(SIZE);
    expect(seen).toEqual(model);
  }, 240_000);

  it("writes one row to move one photo", async () => {
    const before = new Map((await orderInDatabase()).map((row) => [row.photo_id, row.order_key]));
    await move(model[5000], { after: model[10] });
    const changed = (await orderInDatabase()).filter((row) => before.get(row.photo_id) !== row.order_key);
    expect(changed.map((row) => row.photo_id)).toEqual([model[11]]);
  }, 60_000);

  it("never loses or duplicates a photo when editors move photos to one place at once", async () => {
    const anchor = model[100];
    const next = model[101];
    const movers = model.slice(2000, 2016);
    // All at once: each computes the same key between anchor and its neighbour; the unique
    // (album_id, order_key) refuses all but one, and each retries with the neighbours read again.
    await Promise.all(movers.map((photo) => movePhotoInAlbum(db, editor, albumId, photo, { after: anchor })));
    const rows = await orderInDatabase();
    expect(rows).toHaveLength(SIZE);
    expect(new Set(rows.map((row) => row.photo_id)).size).toBe(SIZE);
    expect(new Set(rows.map((row) => row.order_key)).size).toBe(SIZE);
    const order = rows.sort((left, right) => (left.order_key < right.order_key ? -1 : 1)).map((row) => row.photo_id);
    const at = order.indexOf(anchor);
    // The sixteen sit between the anchor and its old neighbour, in whatever order they landed.
    expect(new Set(order.slice(at + 1, at + 17))).toEqual(new Set(movers));
    expect(order[at + 17]).toBe(next);
    // And moves of the same photo to different places at once leave it in exactly one.
    await Promise.all([model[300], model[400], model[500], null].map((target) => movePhotoInAlbum(db, editor, albumId, model[9000], { after: target })));
    const after = await orderInDatabase();
    expect(after).toHaveLength(SIZE);
    expect(after.filter((row) => row.photo_id === model[9000])).toHaveLength(1);
    expect(new Set(after.map((row) => row.order_key)).size).toBe(SIZE);
  }, 120_000);
});
