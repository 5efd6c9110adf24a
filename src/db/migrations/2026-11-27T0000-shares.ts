import type { Kysely } from "kysely";

// Frozen in time: this migration must keep producing the same schema, so it uses Kysely<any>.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // A share link: a key that opens a fixed set of photos to people without an account, under its
  // own rules (password, expiry, view limit, download rights, metadata switches, proofing).
  await db.schema
    .createTable("shares")
    .addColumn("id", "text", (column) => column.primaryKey())
    // The secret in /s/[key]: at least 128 random bits (src/shares/share-key.ts). Kept readable so
    // the owner can copy the link again; the owner's page is as private as the photos it opens.
    .addColumn("key", "text", (column) => column.notNull().unique())
    .addColumn("owner_id", "text", (column) => column.notNull().references("users.id").onDelete("cascade"))
    .addColumn("title", "text", (column) => column.notNull())
    .addColumn("message", "text", (column) => column.notNull().defaultTo(""))
    // The album it was made from, to offer "update from album"; the photos themselves are in share_photos.
    .addColumn("album_id", "text", (column) => column.references("albums.id").onDelete("set null"))
    // argon2id (PHC string), or null for a link without a password.
    .addColumn("password_hash", "text")
    // Part of every visitor's grant cookie: bumped when the password changes, so earlier visitors must enter the new one.
    .addColumn("grant_version", "integer", (column) => column.notNull().defaultTo(1))
    .addColumn("expires_at", "text")
    .addColumn("max_views", "integer")
    .addColumn("view_count", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("download_count", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("last_visited_at", "text")
    // "none", "copy" (full-size download copies) or "original".
    .addColumn("download", "text", (column) => column.notNull().defaultTo("none"))
    .addColumn("allow_zip", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("show_exif", "integer", (column) => column.notNull().defaultTo(1))
    .addColumn("show_location", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("allow_picks", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("pick_limit", "integer")
    .addColumn("selection_locked_at", "text")
    .addColumn("revoked_at", "text")
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("updated_at", "text", (column) => column.notNull())
    .execute();
  await db.schema.createIndex("shares_owner_created").on("shares").columns(["owner_id", "created_at", "id"]).execute();
  await db.schema.createIndex("shares_created").on("shares").columns(["created_at", "id"]).execute();

  // The photos a share opens, in the order its visitors see them.
  await db.schema
    .createTable("share_photos")
    .addColumn("share_id", "text", (column) => column.notNull().references("shares.id").onDelete("cascade"))
    .addColumn("photo_id", "text", (column) => column.notNull().references("photos.id").onDelete("cascade"))
    .addColumn("position", "integer", (column) => column.notNull())
    .addPrimaryKeyConstraint("share_photos_pk", ["share_id", "photo_id"])
    .execute();
  await db.schema.createIndex("share_photos_order").on("share_photos").columns(["share_id", "position"]).unique().execute();
  await db.schema.createIndex("share_photos_photo").on("share_photos").column("photo_id").execute();

  // A named visitor of a proofing link, known by a random token in a cookie scoped to the link
  // (only its SHA-256 is stored).
  await db.schema
    .createTable("share_visitors")
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("share_id", "text", (column) => column.notNull().references("shares.id").onDelete("cascade"))
    .addColumn("token_hash", "text", (column) => column.notNull().unique())
    .addColumn("name", "text", (column) => column.notNull())
    .addColumn("email", "text")
    // When they last pressed "Send my selection"; the owner's "new selections" are those sent after owner_seen_at.
    .addColumn("sent_at", "text")
    .addColumn("owner_seen_at", "text")
    .addColumn("created_at", "text", (column) => column.notNull())
    .addColumn("updated_at", "text", (column) => column.notNull())
    .execute();
  await db.schema.createIndex("share_visitors_share").on("share_visitors").columns(["share_id", "created_at"]).execute();

  // One visitor's pick and comment on one photo of the share.
  await db.schema
    .createTable("share_feedback")
    .addColumn("visitor_id", "text", (column) => column.notNull().references("share_visitors.id").onDelete("cascade"))
    .addColumn("photo_id", "text", (column) => column.notNull().references("photos.id").onDelete("cascade"))
    .addColumn("share_id", "text", (column) => column.notNull().references("shares.id").onDelete("cascade"))
    .addColumn("is_picked", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("comment", "text")
    .addColumn("updated_at", "text", (column) => column.notNull())
    .addPrimaryKeyConstraint("share_feedback_pk", ["visitor_id", "photo_id"])
    .execute();
  await db.schema.createIndex("share_feedback_share_photo").on("share_feedback").columns(["share_id", "photo_id"]).execute();

  // What each link's visitors did, for its owner. The address is replaced by a keyed hash after 30 days.
  await db.schema
    .createTable("share_access_log")
    .addColumn("id", "text", (column) => column.primaryKey())
    .addColumn("share_id", "text", (column) => column.notNull().references("shares.id").onDelete("cascade"))
    .addColumn("created_at", "text", (column) => column.notNull())
    // See SHARE_ACCESS_EVENTS in src/shares/share.types.ts.
    .addColumn("event", "text", (column) => column.notNull())
    // No foreign key: the log outlives a photo's removal.
    .addColumn("photo_id", "text")
    .addColumn("address", "text")
    .addColumn("address_is_hashed", "integer", (column) => column.notNull().defaultTo(0))
    .addColumn("user_agent", "text")
    .execute();
  await db.schema.createIndex("share_access_log_share").on("share_access_log").columns(["share_id", "created_at", "id"]).execute();
  await db.schema.createIndex("share_access_log_unhashed").on("share_access_log").columns(["address_is_hashed", "created_at"]).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("share_access_log").execute();
  await db.schema.dropTable("share_feedback").execute();
  await db.schema.dropTable("share_visitors").execute();
  await db.schema.dropTable("share_photos").execute();
  await db.schema.dropTable("shares").execute();
}
