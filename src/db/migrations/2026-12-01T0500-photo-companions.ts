import type { Kysely } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.
//
// Files that belong to a photo without being its original (issue 30):
// - the RAW of a RAW+JPEG pair: the photo shows the JPEG, the RAW is kept for its owner to
//   download (raw_companion_*: where it is stored, its name, size and SHA-256, the last so the
//   same RAW uploaded again is known as a duplicate);
// - the clip of a motion photo (an MP4 a phone appends to the still), split off on upload.
// pairing_name is the upload's file name without its extension, folded to lower case: a RAW and
// a JPEG of the same shot share it, and (owner_id, pairing_name) finds the other half of a pair
// by equality on both databases. Photos uploaded before this have none and never pair.

const COLUMNS: Array<[string, "text" | "integer"]> = [
  ["pairing_name", "text"],
  ["raw_companion_key", "text"],
  ["raw_companion_name", "text"],
  ["raw_companion_size", "integer"],
  ["raw_companion_sha256", "text"],
  ["motion_clip_key", "text"],
  ["motion_clip_size", "integer"],
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // One column per statement: SQLite adds only one at a time.
  for (const [name, type] of COLUMNS) await db.schema.alterTable("photos").addColumn(name, type).execute();
  await db.schema.createIndex("photos_owner_pairing_name").on("photos").columns(["owner_id", "pairing_name"]).execute();
  await db.schema.createIndex("photos_owner_raw_companion_sha256").on("photos").columns(["owner_id", "raw_companion_sha256"]).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("photos_owner_raw_companion_sha256").execute();
  await db.schema.dropIndex("photos_owner_pairing_name").execute();
  for (const [name] of [...COLUMNS].reverse()) await db.schema.alterTable("photos").dropColumn(name).execute();
}
