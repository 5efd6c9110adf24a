// The upload page's list after a reload (listRecentUploads): the user's own latest uploads with a
// thumbnail and an alt-text nudge, never anyone else's, admins included. On a freshly migrated
// database of its own, with rows written directly (no image work).
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { SessionUser } from "@/src/access/viewer";
import type { DatabaseHandle } from "@/src/db/client";
import { listRecentUploads } from "@/src/photos/recent-uploads.service";
import { insertPhotoRows, insertUsers } from "./helpers/direct-rows";
import { openFreshDatabase } from "./helpers/test-database";

const editor: SessionUser = { id: "recent-editor", email: "editor@example.test", name: "Editor", role: "editor" };
const admin: SessionUser = { id: "recent-admin", email: "admin@example.test", name: "Admin", role: "admin" };
const viewer: SessionUser = { id: "recent-viewer", email: "viewer@example.test", name: "Viewer", role: "viewer" };

let db: DatabaseHandle;
let remove: () => Promise<void>;

async function insertPhoto(id: string, ownerId: string, createdAt: string, options: { altText?: string; status?: "ready" | "processing" } = {}) {
  await insertPhotoRows(db, [{ id, owner_id: ownerId, status: options.status ?? "ready", sort_at: createdAt, alt_text: options.altText ?? "" }]);
}

beforeAll(async () => {
  ({ db, remove } = await openFreshDatabase(inject("databaseKind")));
  const now = new Date().toISOString();
  await insertUsers(db, [editor, admin, viewer], now);
  await insertPhoto("older", editor.id, "2026-01-01T00:00:00.000Z", { altText: "A heron" });
  await insertPhoto("newer", editor.id, "2026-01-02T00:00:00.000Z", { status: "processing" });
  await insertPhoto("admins-own", admin.id, "2026-01-03T00:00:00.000Z");
  // The smallest browser-safe variant is the thumbnail; AVIF is skipped even when smaller.
  await db
    .insertInto("photo_variants")
    .values([
      { photo_id: "older", format: "avif", width: 160, height: 107, storage_key: "variants/older/160.avif", byte_size: 1 },
      { photo_id: "older", format: "jpeg", width: 320, height: 213, storage_key: "variants/older/320.jpeg", byte_size: 1 },
      { photo_id: "older", format: "jpeg", width: 1280, height: 853, storage_key: "variants/older/1280.jpeg", byte_size: 1 },
    ])
    .execute();
});
afterAll(() => remove());

describe("listRecentUploads", () => {
  it("lists the user's own uploads, newest first, with the smallest JPEG or WebP as thumbnail and a nudge where alt text is missing", async () => {
    const uploads = await listRecentUploads(db, editor);
    expect(uploads.map((upload) => [upload.id, upload.status, upload.needsAltText])).toEqual([
      ["newer", "processing", true],
      ["older", "ready", false],
    ]);
    expect(uploads[0].thumbnailUrl).toBeNull();
    expect(uploads[1].thumbnailUrl).toMatch(/\/320\.jpeg$/);
  });

  it("never lists another user's uploads, not even to an admin", async () => {
    expect((await listRecentUploads(db, admin)).map((upload) => upload.id)).toEqual(["admins-own"]);
  });

  it("refuses a viewer, who cannot upload", async () => {
    await expect(listRecentUploads(db, viewer)).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
