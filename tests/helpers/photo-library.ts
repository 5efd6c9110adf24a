import type { Kysely } from "kysely";
import type { SessionUser } from "@/src/access/viewer";
import type { Database, PhotoRow, PhotoVariantRow, Visibility } from "@/src/db/database";
import { insertPhoto, insertVariants } from "@/src/photos/photos.repository";
import { buildNewUser, insertUser } from "@/src/users/users.repository";

export interface SeededPhoto {
  id: string;
  ownerId: string;
  visibility: Visibility;
  status: PhotoRow["status"];
  sortAt: string;
}

export interface PhotoLibrary {
  admin: SessionUser;
  editor: SessionUser;
  member: SessionUser;
  /** In the order they were inserted (oldest first). */
  photos: SeededPhoto[];
  variants: PhotoVariantRow[];
}

const VISIBILITIES: Visibility[] = ["public", "public", "public", "members", "private", "unlisted"];

function makeUser(role: SessionUser["role"], name: string): SessionUser {
  const row = buildNewUser({ email: `${name}@example.test`, name, role, passwordHash: null, now: new Date().toISOString() });
  return { id: row.id, email: row.email, name: row.name, role };
}

/**
 * A small library straight through the repositories (no files): an admin, an editor and a member,
 * and photos of every visibility, both owners and every status, a day apart, with every fifth
 * taken at the same moment as the one before (so the keyset's tie-break on id is exercised).
 */
export async function seedPhotoLibrary(db: Kysely<Database>, prefix: string, count = 60): Promise<PhotoLibrary> {
  const admin = makeUser("admin", `${prefix}-admin`);
  const editor = makeUser("editor", `${prefix}-editor`);
  const member = makeUser("viewer", `${prefix}-member`);
  const now = new Date().toISOString();
  for (const user of [admin, editor, member]) {
    await insertUser(db, { ...buildNewUser({ email: user.email, name: user.name, role: user.role, passwordHash: null, now }), id: user.id });
  }
  const photos: SeededPhoto[] = [];
  const variants: PhotoVariantRow[] = [];
  for (let index = 0; index < count; index += 1) {
    const day = index % 5 === 4 ? index - 1 : index;
    const photo: SeededPhoto = {
      id: `${prefix}-photo-${String(index).padStart(3, "0")}`,
      ownerId: index % 2 === 0 ? editor.id : admin.id,
      visibility: VISIBILITIES[index % VISIBILITIES.length],
      status: index % 10 === 9 ? "failed" : index % 10 === 8 ? "processing" : "ready",
      sortAt: new Date(Date.UTC(2010, 0, 1) + day * 86_400_000).toISOString(),
    };
    await insertPhoto(db, {
      id: photo.id,
      owner_id: photo.ownerId,
      sha256: photo.id,
      status: photo.status,
      visibility: photo.visibility,
      original_key: `originals/${photo.id}`,
      original_name: `${photo.id}.jpg`,
      original_type: "image/jpeg",
      original_size: 1000,
      width: 3000,
      height: 2000,
      // Dated, as a camera's photos are: a photo without a date taken is in no year of /years.
      taken_at: photo.sortAt,
      sort_at: photo.sortAt,
      created_at: photo.sortAt,
      updated_at: photo.sortAt,
    });
    photos.push(photo);
    for (const width of [320, 640, 1280]) {
      variants.push({ photo_id: photo.id, format: "jpeg", width, height: Math.round((width * 2) / 3), storage_key: `variants/${photo.id}/jpeg-${width}.jpg`, byte_size: width * 10 });
    }
  }
  await insertVariants(db, variants);
  return { admin, editor, member, photos, variants };
}

/** Newest first by date taken, then by id: the gallery's order. */
export function inGalleryOrder(photos: SeededPhoto[]): SeededPhoto[] {
  return [...photos].sort((left, right) => (left.sortAt === right.sortAt ? right.id.localeCompare(left.id) : right.sortAt.localeCompare(left.sortAt)));
}
