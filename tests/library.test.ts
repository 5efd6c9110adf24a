// The photo library (/admin/photos, GET /api/photos/library) and its bulk PATCH /api/photos: every
// request one transaction, an id the editor may not change anywhere in it answers 404 with nothing
// changed, "select all matching" acts on the editor's own matching photos only, one audit row each.
import { inject } from "vitest";
import { describe, expect, it } from "vitest";
import type { Visibility } from "@/src/db/database";
import { insertPhoto } from "@/src/photos/photos.repository";
import { openTestDatabase } from "./helpers/test-database";
import { signedInAs, type TestClient, type TestUser } from "./helpers/test-client";
import { cameraSlug } from "@/src/photos/camera-slug";

function database() {
  return openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
}

let photoCounter = 0;

/** Photo rows straight into the database (no files: the library and bulk changes only read rows). */
async function seedPhotos(owner: TestUser, photos: Array<{ visibility?: Visibility; altText?: string; camera?: string }>): Promise<string[]> {
  const db = database();
  try {
    const ids: string[] = [];
    for (const photo of photos) {
      photoCounter += 1;
      const id = crypto.randomUUID();
      const at = new Date(Date.UTC(2015, 0, 1) + photoCounter * 60_000).toISOString();
      await insertPhoto(db, {
        id,
        owner_id: owner.id,
        sha256: id,
        status: "ready",
        visibility: photo.visibility ?? "private",
        alt_text: photo.altText ?? "",
        camera_model: photo.camera ?? null,
        camera_slug: photo.camera ? cameraSlug(null, photo.camera) : null,
        original_key: `originals/${id}`,
        original_name: `library-${photoCounter}.jpg`,
        original_type: "jpeg",
        original_size: 1000,
        width: 300,
        height: 200,
        sort_at: at,
        created_at: at,
        updated_at: at,
      });
      ids.push(id);
    }
    return ids;
  } finally {
    await db.destroy();
  }
}

async function visibilities(ids: string[]): Promise<Record<string, string>> {
  const db = database();
  try {
    const rows = await db.selectFrom("photos").select(["id", "visibility"]).where("id", "in", ids).execute();
    return Object.fromEntries(rows.map((row) => [row.id, row.visibility]));
  } finally {
    await db.destroy();
  }
}

async function auditRows(action: string, actorId: string): Promise<Array<{ target_id: string | null; details: Record<string, unknown> }>> {
  const db = database();
  try {
    const rows = await db.selectFrom("audit_log").select(["target_id", "details"]).where("action", "=", action).where("actor_id", "=", actorId).execute();
    return rows.map((row) => ({ target_id: row.target_id, details: JSON.parse(row.details) as Record<string, unknown> }));
  } finally {
    await db.destroy();
  }
}

async function bulk(client: TestClient, body: unknown): Promise<Response> {
  return client.request("/api/photos", { method: "PATCH", body: { json: body } });
}

describe("bulk changes in the library", () => {
  it("is all or nothing: another editor's photo in the middle answers 404 and changes nothing; then one audit row, and Undo puts each back", async () => {
    const { client, user } = await signedInAs("editor");
    const other = await signedInAs("editor");
    const own = await seedPhotos(user, [{ visibility: "private" }, { visibility: "members" }, { visibility: "private" }]);
    const [theirs] = await seedPhotos(other.user, [{ visibility: "public" }]);

    const refused = await bulk(client, { photoIds: [own[0], theirs, own[1]], set: { visibility: "public" } });
    expect(refused.status).toBe(404);
    expect(await visibilities([...own, theirs])).toEqual({ [own[0]]: "private", [own[1]]: "members", [own[2]]: "private", [theirs]: "public" });
    expect(await auditRows("photo.bulk-update", user.id)).toEqual([]);

    const missing = await bulk(client, { photoIds: [own[0], crypto.randomUUID()], set: { visibility: "public" } });
    expect(missing.status).toBe(404);

    const response = await bulk(client, { photoIds: own, set: { visibility: "public" } });
    expect(response.status).toBe(200);
    const result = (await response.json()) as { changed: number; message: string; photos: Array<{ id: string; before: { visibility: string } }> };
    expect(result).toMatchObject({ changed: 3, matched: 3, message: "3 photos made public" });
    expect(await visibilities(own)).toEqual({ [own[0]]: "public", [own[1]]: "public", [own[2]]: "public" });
    const [audit] = await auditRows("photo.bulk-update", user.id);
    expect(audit.details).toEqual({
      before: { [own[0]]: { visibility: "private" }, [own[1]]: { visibility: "members" }, [own[2]]: { visibility: "private" } },
      after: { [own[0]]: { visibility: "public" }, [own[1]]: { visibility: "public" }, [own[2]]: { visibility: "public" } },
    });

    // Undo: each photo's own previous visibility, in one request.
    const undo = await bulk(client, { each: result.photos.map((photo) => ({ id: photo.id, visibility: photo.before.visibility })) });
    expect(undo.status).toBe(200);
    expect(await visibilities(own)).toEqual({ [own[0]]: "private", [own[1]]: "members", [own[2]]: "private" });
    expect(await auditRows("photo.bulk-update", user.id)).toHaveLength(2);

    // Undo naming a photo that is not theirs is refused whole too.
    const badUndo = await bulk(client, { each: [{ id: own[0], visibility: "public" }, { id: theirs, visibility: "private" }] });
    expect(badUndo.status).toBe(404);
    expect(await visibilities([own[0], theirs])).toEqual({ [own[0]]: "private", [theirs]: "public" });
  });

  it("select all matching acts on exactly the filter's photos of that editor, on the server; admins act on everyone's", async () => {
    const { client, user, admin } = await signedInAs("editor");
    const other = await signedInAs("editor");
    // The filter names a camera by its URL name, as /cameras/[slug] does.
    const model = `Camera-${crypto.randomUUID().slice(0, 8)}`;
    const camera = cameraSlug(null, model) ?? "";
    const missingAlt = await seedPhotos(user, [{ camera: model }, { camera: model }, { camera: model }]);
    const described = await seedPhotos(user, [{ camera: model, altText: "A harbour at dusk" }]);
    const otherCamera = await seedPhotos(user, [{ camera: "Other" }]);
    const theirs = await seedPhotos(other.user, [{ camera: model }, { camera: model }]);

    const listed = await client.request(`/api/photos/library?camera=${camera}&missingAltText=1`);
    expect(listed.status).toBe(200);
    const page = (await listed.json()) as { total: number; photos: Array<{ id: string }> };
    expect(page.total).toBe(3);
    expect(page.photos.map((photo) => photo.id).sort()).toEqual([...missingAlt].sort());

    const response = await bulk(client, { filter: { camera, missingAltText: true }, set: { visibility: "members" } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ matched: 3, changed: 3, message: "3 photos made members-only" });
    const after = await visibilities([...missingAlt, ...described, ...otherCamera, ...theirs]);
    for (const id of missingAlt) expect(after[id]).toBe("members");
    for (const id of [...described, ...otherCamera, ...theirs]) expect(after[id]).toBe("private");

    // An admin's filter reaches every owner's photos.
    const byAdmin = await bulk(admin, { filter: { camera, visibility: "private" }, set: { visibility: "unlisted" } });
    expect(await byAdmin.json()).toMatchObject({ changed: 3 });
    const final = await visibilities([...described, ...theirs]);
    for (const id of [...described, ...theirs]) expect(final[id]).toBe("unlisted");
  });

  it("lists only the editor's own photos, newest first, paged by cursor with a count; viewers may not use it", async () => {
    const { client, user } = await signedInAs("editor");
    const other = await signedInAs("editor");
    const own = await seedPhotos(user, Array.from({ length: 5 }, () => ({ visibility: "private" as const })));
    await seedPhotos(other.user, [{}]);

    const first = (await (await client.request("/api/photos/library?limit=3")).json()) as { photos: Array<{ id: string }>; nextCursor: string; total: number };
    expect(first.total).toBe(5);
    expect(first.photos.map((photo) => photo.id)).toEqual([own[4], own[3], own[2]]);
    const second = (await (await client.request(`/api/photos/library?limit=3&cursor=${first.nextCursor}`)).json()) as { photos: Array<{ id: string }>; nextCursor: string | null };
    expect(second.photos.map((photo) => photo.id)).toEqual([own[1], own[0]]);
    expect(second.nextCursor).toBeNull();

    const viewer = await signedInAs("viewer");
    expect((await viewer.client.request("/api/photos/library")).status).toBe(403);
    expect((await bulk(viewer.client, { photoIds: own, set: { visibility: "public" } })).status).toBe(403);
  });

  it("filters by album, by tag and 'in no album', and select-all acts on exactly that filter", async () => {
    const { client, user } = await signedInAs("editor");
    const [inAlbum, tagged, loose] = await seedPhotos(user, [{}, {}, {}]);
    const created = await client.request("/api/albums", { method: "POST", body: { json: { title: `Library filter ${photoCounter}` } } });
    expect(created.status, await created.clone().text()).toBe(201);
    const { album } = (await created.json()) as { album: { id: string } };
    expect((await client.request(`/api/albums/${album.id}/photos`, { method: "POST", body: { json: { photoIds: [inAlbum] } } })).status).toBe(200);
    expect((await client.request(`/api/photos/${tagged}/tags`, { method: "PUT", body: { json: { names: ["Harbour Lights"] } } })).status).toBe(200);

    const listed = async (query: string) =>
      ((await (await client.request(`/api/photos/library?${query}`)).json()) as { photos: Array<{ id: string }>; total: number }).photos.map((photo) => photo.id);
    expect(await listed(`album=${album.id}`)).toEqual([inAlbum]);
    // The tag's key: NFC, case-folded.
    expect(await listed("tag=harbour%20lights")).toEqual([tagged]);
    expect(await listed("inNoAlbum=1")).toEqual([loose, tagged]);

    const response = await bulk(client, { filter: { inNoAlbum: true }, set: { visibility: "members" } });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await visibilities([inAlbum, tagged, loose])).toEqual({ [inAlbum]: "private", [tagged]: "members", [loose]: "members" });
  });

  it("refuses bad bodies with a clear error", async () => {
    const { client } = await signedInAs("editor");
    expect((await bulk(client, { photoIds: ["x"], filter: {}, set: { visibility: "public" } })).status).toBe(422);
    expect((await bulk(client, { photoIds: [], set: { visibility: "public" } })).status).toBe(422);
    expect((await bulk(client, { photoIds: ["x"], set: { visibility: "everyone" } })).status).toBe(422);
    expect((await bulk(client, { photoIds: Array.from({ length: 1001 }, (_, index) => `id-${index}`), action: "trash" })).status).toBe(422);
  });
});

describe("bulk rating and colour label", () => {
  async function notes(ids: string[]): Promise<Record<string, [number, string | null, number, number]>> {
    const db = database();
    try {
      const rows = await db.selectFrom("photos").select(["id", "rating", "label", "rating_by_owner", "label_by_owner"]).where("id", "in", ids).execute();
      return Object.fromEntries(rows.map((row) => [row.id, [row.rating, row.label, Number(row.rating_by_owner), Number(row.label_by_owner)]]));
    } finally {
      await db.destroy();
    }
  }

  it("rates and labels the selection (marked the owner's own, so processing keeps them), all or nothing, with one audit row", async () => {
    const { client, user } = await signedInAs("editor");
    const other = await signedInAs("editor");
    const own = await seedPhotos(user, [{}, {}]);
    const [theirs] = await seedPhotos(other.user, [{ visibility: "public" }]);

    expect((await bulk(client, { photoIds: [own[0], theirs], set: { rating: 4 } })).status).toBe(404);
    expect((await bulk(client, { photoIds: own, set: { rating: 6 } })).status).toBe(422);
    expect((await bulk(client, { photoIds: own, set: { label: "orange" } })).status).toBe(422);
    expect((await bulk(client, { photoIds: own, set: {} })).status).toBe(422);
    expect((await bulk(client, { photoIds: own, set: { rating: 4, visibility: "public" } })).status).toBe(422);
    expect(await notes([...own, theirs])).toEqual({ [own[0]]: [0, null, 0, 0], [own[1]]: [0, null, 0, 0], [theirs]: [0, null, 0, 0] });

    const rated = await bulk(client, { photoIds: own, set: { rating: 4, label: "red" } });
    expect(rated.status, await rated.clone().text()).toBe(200);
    expect(await rated.json()).toMatchObject({ action: "notes", matched: 2, changed: 2, message: "2 photos: rated 4 stars, labelled red" });
    expect(await notes(own)).toEqual({ [own[0]]: [4, "red", 1, 1], [own[1]]: [4, "red", 1, 1] });
    const [audit] = await auditRows("photo.bulk-update", user.id);
    expect(audit.details).toEqual({ before: { [own[0]]: { rating: 0, label: null }, [own[1]]: { rating: 0, label: null } }, after: { [own[0]]: { rating: 4, label: "red" }, [own[1]]: { rating: 4, label: "red" } } });

    // The label alone, taken off one photo; the rating stays.
    const unlabelled = await bulk(client, { photoIds: [own[1]], set: { label: null } });
    expect(await unlabelled.json()).toMatchObject({ changed: 1, message: "1 photo: label taken off" });
    expect(await notes(own)).toEqual({ [own[0]]: [4, "red", 1, 1], [own[1]]: [4, null, 1, 1] });
    expect(await auditRows("photo.bulk-update", user.id)).toHaveLength(2);
  });
});
