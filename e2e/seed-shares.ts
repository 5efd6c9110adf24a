import path from "node:path";
import { hash } from "@node-rs/argon2";
import SQLite from "better-sqlite3";
import { E2E_ADMIN, E2E_DATA_DIRECTORY } from "./constants";

/**
 * The share links the page tour visits, written straight into the e2e server's SQLite database (the
 * owner's API for links is built apart; switch to it once it is there). Fixed keys, so the tour's
 * paths need no ids; made once per server run (a second call finds them and sets their photos to the ones given).
 */
export const TOUR_SHARES = {
  /** Open, no password: the gallery and a photo page. */
  open: "tourOpenShareLinkKey0001",
  /** With a password: the password form. */
  password: "tourPasswordShareKey0001",
  /** Turned off by its owner: the refusal page. */
  revoked: "tourRevokedShareKey00001",
} as const;

export const TOUR_SHARE_PASSWORD = "tour-share-password";

export async function seedTourShares(photoIds: string[]): Promise<void> {
  const database = new SQLite(path.resolve(E2E_DATA_DIRECTORY, "contact-sheet.sqlite"));
  try {
    database.pragma("busy_timeout = 5000");
    const owner = database.prepare("select id from users where email = ?").get(E2E_ADMIN.email) as { id: string };
    const now = new Date().toISOString();
    const passwordHash = await hash(TOUR_SHARE_PASSWORD, { memoryCost: 19456, timeCost: 2, parallelism: 1 });
    const rows = [
      { key: TOUR_SHARES.open, password: null, revoked: null, download: "copy", zip: 1 },
      { key: TOUR_SHARES.password, password: passwordHash, revoked: null, download: "none", zip: 0 },
      { key: TOUR_SHARES.revoked, password: null, revoked: now, download: "none", zip: 0 },
    ];
    const insertShare = database.prepare(
      `insert or ignore into shares (id, key, owner_id, title, message, download, allow_zip, show_exif, show_location, password_hash, revoked_at, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, 1, 0, ?, ?, ?, ?)`,
    );
    // Each call gives the links exactly the photos the calling spec seeded (specs seed different numbers).
    const clearPhotos = database.prepare("delete from share_photos where share_id = ?");
    const insertPhoto = database.prepare("insert into share_photos (share_id, photo_id, position) values (?, ?, ?)");
    for (const row of rows) {
      const id = `tour-share-${row.key}`;
      insertShare.run(id, row.key, owner.id, "Ana & Rui — 14 June", "Here are the photos from the day. Download what you like.", row.download, row.zip, row.password, row.revoked, now, now);
      clearPhotos.run(id);
      photoIds.forEach((photoId, position) => insertPhoto.run(id, photoId, position));
    }
  } finally {
    database.close();
  }
}
