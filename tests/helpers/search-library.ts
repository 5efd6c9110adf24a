import type { Kysely } from "kysely";
import type { SessionUser } from "@/src/access/viewer";
import type { Database, NewPhotoRow, PhotoLabel, Visibility } from "@/src/db/database";
import { cameraSlug, lensSlug } from "@/src/photos/camera-slug";
import { insertPhoto } from "@/src/photos/photos.repository";
import { buildNewUser, insertUser } from "@/src/users/users.repository";

// A small library for the search language's table (tests/search.test.ts) and the index's triggers
// (tests/search-index.test.ts), made straight through the repositories on a fresh database of the
// run's kind, so both databases are asked the same questions about the same rows.

export interface SearchLibrary {
  admin: SessionUser;
  editor: SessionUser;
  member: SessionUser;
  /** Short name ("p1") → photo id. */
  ids: Record<string, string>;
}

interface PhotoSpec {
  title: string;
  caption?: string;
  altText?: string;
  visibility?: Visibility;
  make?: string;
  model?: string;
  lens?: string;
  iso?: number;
  aperture?: number;
  width?: number | null;
  height?: number | null;
  sortAt: string;
  trashed?: boolean;
  tags?: string[];
  /** The owner's stars and label (only the owner and admins may search them). */
  rating?: number;
  label?: PhotoLabel;
  /** Where it was taken, as processing stores it (place:); the owner shows it unless `hidesLocation`. */
  place?: { city: string | null; region: string | null; country: string };
  hidesLocation?: boolean;
}

/** Newest first: p3, p4, p6, p5, p2, p1, p8 (p7 is in the trash). */
export const SEARCH_PHOTOS: Record<string, PhotoSpec> = {
  p1: {
    title: "Café at the Beach",
    caption: "Sunny day",
    tags: ["Beach", "Summer"],
    make: "Canon",
    model: "Canon EOS 40D",
    lens: "EF-S 17-85mm f/4-5.6 IS USM",
    iso: 200,
    aperture: 4,
    width: 3000,
    height: 2000,
    sortAt: "2019-06-01T10:00:00.000Z",
    rating: 5,
    label: "red",
    place: { city: "Rome", region: "Lazio", country: "IT" },
  },
  p2: {
    title: "Beach volleyball",
    tags: ["Beach"],
    make: "NIKON CORPORATION",
    model: "NIKON D70s",
    iso: 3200,
    aperture: 2.8,
    width: 2000,
    height: 3000,
    sortAt: "2019-08-15T18:30:00.000Z",
    rating: 4,
    place: { city: "New York", region: "New York", country: "US" },
    hidesLocation: true,
  },
  p3: {
    title: "Mountain hut",
    caption: "Cold morning near the CAFÉ",
    make: "Canon",
    model: "Canon EOS 5D Mark II",
    iso: 1600,
    aperture: 1.8,
    width: 2000,
    height: 2000,
    sortAt: "2024-05-02T07:00:00.000Z",
    rating: 2,
    label: "green",
    place: { city: null, region: "Valais", country: "CH" },
  },
  p4: {
    title: "Zürich street",
    altText: "Tram in ZÜRICH",
    make: "Apple",
    model: "iPhone 6",
    lens: "iPhone 6 back camera 4.15mm f/2.2",
    iso: 100,
    aperture: 2.2,
    width: 3000,
    height: 2000,
    sortAt: "2024-04-30T23:59:59.000Z",
    label: "red",
    place: { city: "Zürich", region: "Zurich", country: "CH" },
  },
  p5: { title: "Secret beach", visibility: "members", tags: ["Beach"], sortAt: "2020-01-01T00:00:00.000Z", rating: 5, place: { city: "Rome", region: "Lazio", country: "IT" } },
  p6: { title: "Private beach", visibility: "private", sortAt: "2021-03-03T00:00:00.000Z", rating: 5, label: "red" },
  p7: { title: "Trashed beach", trashed: true, sortAt: "2022-02-02T00:00:00.000Z" },
  p8: { title: "NEAR the AND OR", caption: "رمل 🌊 e\u0301te\u0301", width: null, height: null, sortAt: "2018-12-31T23:00:00.000Z" },
};

function makeUser(role: SessionUser["role"], name: string): SessionUser & { row: ReturnType<typeof buildNewUser> } {
  const row = buildNewUser({ email: `${name}@example.test`, name, role, passwordHash: null, now: new Date().toISOString() });
  return { id: row.id, email: row.email, name: row.name, role, row };
}

/** A finished photo's row as the library writes it (no files: for tests that read rows only). */
export function photoRow(id: string, ownerId: string, spec: PhotoSpec): NewPhotoRow {
  return {
    id,
    owner_id: ownerId,
    sha256: id,
    status: "ready",
    visibility: spec.visibility ?? "public",
    original_key: `originals/${id}`,
    original_name: `${id}.jpg`,
    original_type: "image/jpeg",
    original_size: 1000,
    width: spec.width === undefined ? 3000 : spec.width,
    height: spec.height === undefined ? 2000 : spec.height,
    title: spec.title,
    caption: spec.caption ?? "",
    alt_text: spec.altText ?? "",
    camera_make: spec.make ?? null,
    camera_model: spec.model ?? null,
    camera_slug: cameraSlug(spec.make ?? null, spec.model ?? null),
    lens: spec.lens ?? null,
    lens_slug: lensSlug(spec.lens ?? null),
    iso: spec.iso ?? null,
    aperture: spec.aperture ?? null,
    // Every photo here has a date taken: a photo without one is in no year (tests/photo-edit.test.ts).
    taken_at: spec.sortAt,
    sort_at: spec.sortAt,
    trashed_at: spec.trashed ? spec.sortAt : null,
    rating: spec.rating ?? 0,
    label: spec.label ?? null,
    show_location: spec.hidesLocation ? 0 : 1,
    place_city: spec.place?.city ?? null,
    place_region: spec.place?.region ?? null,
    place_country_code: spec.place?.country ?? null,
    place_source: spec.place ? "automatic" : null,
    created_at: spec.sortAt,
    updated_at: spec.sortAt,
  };
}

/** Inserts tags (by name) on a photo, making the tags that do not exist yet. */
export async function tagPhoto(db: Kysely<Database>, photoId: string, names: string[]): Promise<void> {
  const photo = await db.selectFrom("photos").select("sort_at").where("id", "=", photoId).executeTakeFirstOrThrow();
  for (const name of names) {
    const key = name.toLowerCase();
    await db.insertInto("tags").values({ id: `tag-${key}`, name, key, created_at: photo.sort_at }).onConflict((conflict) => conflict.column("key").doNothing()).execute();
    await db.insertInto("photo_tags").values({ photo_id: photoId, tag_id: `tag-${key}`, sort_at: photo.sort_at }).execute();
  }
}

export async function makeAlbum(db: Kysely<Database>, album: { id: string; slug: string; title: string; visibility: Visibility; ownerId: string }, photoIds: string[]): Promise<void> {
  const now = new Date().toISOString();
  await db
    .insertInto("albums")
    .values({ id: album.id, owner_id: album.ownerId, slug: album.slug, title: album.title, visibility: album.visibility, parent_id: null, cover_photo_id: null, created_at: now, updated_at: now })
    .execute();
  let index = 0;
  for (const photoId of photoIds) {
    const photo = await db.selectFrom("photos").select(["sort_at", "created_at"]).where("id", "=", photoId).executeTakeFirstOrThrow();
    index += 1;
    await db
      .insertInto("album_photos")
      .values({ album_id: album.id, photo_id: photoId, order_key: `a${index}`, photo_sort_at: photo.sort_at, photo_created_at: photo.created_at, added_at: now })
      .execute();
  }
}

/**
 * The library: p1..p8 (SEARCH_PHOTOS) owned by the editor; a public album "Alps Trip" holding p3;
 * a private album "Hidden Gems" holding p1 (its title must never be searchable); `fillers` more
 * public photos titled "filler", five per instant (ties on sort_at for the keyset).
 */
export async function seedSearchLibrary(db: Kysely<Database>, prefix: string, fillers = 0): Promise<SearchLibrary> {
  const admin = makeUser("admin", `${prefix}-admin`);
  const editor = makeUser("editor", `${prefix}-editor`);
  const member = makeUser("viewer", `${prefix}-member`);
  for (const user of [admin, editor, member]) await insertUser(db, user.row);
  const ids: Record<string, string> = {};
  for (const [name, spec] of Object.entries(SEARCH_PHOTOS)) {
    ids[name] = `${prefix}-${name}`;
    await insertPhoto(db, photoRow(ids[name], editor.id, spec));
    if (spec.tags) await tagPhoto(db, ids[name], spec.tags);
  }
  for (let index = 0; index < fillers; index += 1) {
    const id = `${prefix}-filler-${String(index).padStart(3, "0")}`;
    ids[`f${index}`] = id;
    const sortAt = new Date(Date.UTC(2015, 0, 1) + Math.floor(index / 5) * 86_400_000).toISOString();
    await insertPhoto(db, photoRow(id, index % 3 === 0 ? admin.id : editor.id, { title: `filler number ${index}`, sortAt }));
  }
  await makeAlbum(db, { id: `${prefix}-alps`, slug: "alps-trip", title: "Alps Trip", visibility: "public", ownerId: editor.id }, [ids.p3]);
  await makeAlbum(db, { id: `${prefix}-hidden`, slug: "hidden-gems", title: "Hidden Gems", visibility: "private", ownerId: editor.id }, [ids.p1]);
  const strip = ({ id, email, name, role }: SessionUser) => ({ id, email, name, role });
  return { admin: strip(admin), editor: strip(editor), member: strip(member), ids };
}
