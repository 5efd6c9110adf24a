import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Database } from "@/src/db/database";
import { listSlugGroups } from "@/src/search/search.repository";
import { insertPhotoRows, insertUsers } from "./helpers/direct-rows";
import { slugGroupsProblems } from "./helpers/schema-history";
import { openFreshDatabase } from "./helpers/test-database";

// Search resolves camera: and lens: against photo_slug_groups, which the database keeps in step
// with photos by triggers (migration 2026-12-04T0000-camera-lens-groups) instead of grouping every
// photo when asked. Every way a photo can move between groups must move its count: a new photo, a
// change of camera, lens, visibility or state, the trash and back, the owner's removal, deletion.

const databaseKind = inject("databaseKind");
let db: Kysely<Database>;
let remove: () => Promise<void>;
const canon = { camera_make: "Canon", camera_model: "Canon EOS 40D", camera_slug: "canon-eos-40d" };
const nikon = { camera_make: "NIKON CORPORATION", camera_model: "NIKON D750", camera_slug: "nikon-d750" };
const fifty = { lens: "EF 50mm f/1.8", lens_slug: "ef-50mm-f-1-8" };

beforeAll(async () => {
  ({ db, remove } = await openFreshDatabase(databaseKind));
  await insertUsers(db, [
    { id: "slug-owner", email: "slug-owner@example.test", name: "Owner", role: "editor" },
    { id: "slug-other", email: "slug-other@example.test", name: "Other", role: "editor" },
  ]);
});

afterAll(async () => {
  await remove?.();
});

describe("camera and lens groups kept by the database", () => {
  it("follow every change of a photo, and answer search's slug groups", async () => {
    await insertPhotoRows(db, [
      { id: "sg-1", owner_id: "slug-owner", sort_at: "2024-01-01T00:00:00.000Z", visibility: "public", ...canon, ...fifty },
      { id: "sg-2", owner_id: "slug-owner", sort_at: "2024-01-02T00:00:00.000Z", visibility: "public", ...canon },
      { id: "sg-3", owner_id: "slug-other", sort_at: "2024-01-03T00:00:00.000Z", ...nikon, ...fifty },
      { id: "sg-4", owner_id: "slug-other", sort_at: "2024-01-04T00:00:00.000Z", status: "processing" },
      // A camera without a make: stored as '', answered as null.
      { id: "sg-5", owner_id: "slug-owner", sort_at: "2024-01-05T00:00:00.000Z", camera_make: null, camera_model: "Mystery", camera_slug: "mystery" },
    ]);
    expect(await slugGroupsProblems(db)).toEqual([]);
    const groups = await listSlugGroups(db);
    expect(groups).toContainEqual({ kind: "camera", slug: "canon-eos-40d", make: "Canon", label: "Canon EOS 40D", visibility: "public", owner_id: "slug-owner", status: "ready" });
    expect(groups).toContainEqual({ kind: "camera", slug: "mystery", make: null, label: "Mystery", visibility: "private", owner_id: "slug-owner", status: "ready" });
    expect(groups.filter((group) => group.kind === "lens")).toHaveLength(2);

    const steps: Array<[string, () => Promise<unknown>]> = [
      ["made private", () => db.updateTable("photos").set({ visibility: "private" }).where("id", "=", "sg-1").execute()],
      ["finished processing with a camera", () => db.updateTable("photos").set({ status: "ready", ...canon }).where("id", "=", "sg-4").execute()],
      ["another camera and no lens", () => db.updateTable("photos").set({ ...nikon, lens: null, lens_slug: null }).where("id", "=", "sg-1").execute()],
      ["a change that moves nothing", () => db.updateTable("photos").set({ title: "A title" }).where("id", "=", "sg-2").execute()],
      ["the same value written again", () => db.updateTable("photos").set({ visibility: "public" }).where("id", "=", "sg-2").execute()],
      ["trashed", () => db.updateTable("photos").set({ trashed_at: "2024-02-01T00:00:00.000Z" }).where("id", "in", ["sg-2", "sg-3"]).execute()],
      ["restored", () => db.updateTable("photos").set({ trashed_at: null }).where("id", "=", "sg-3").execute()],
      ["deleted in the trash", () => db.deleteFrom("photos").where("id", "=", "sg-2").execute()],
      ["deleted", () => db.deleteFrom("photos").where("id", "=", "sg-5").execute()],
    ];
    for (const [step, change] of steps) {
      await change();
      expect(await slugGroupsProblems(db), step).toEqual([]);
    }
    // The last Canon photo is sg-4 (the other's, ready): the owner's Canon group went with sg-2.
    const cameras = (await listSlugGroups(db)).filter((group) => group.kind === "camera").map((group) => `${group.slug} ${group.owner_id} ${group.visibility}`);
    expect(cameras.sort()).toEqual(["canon-eos-40d slug-other private", "nikon-d750 slug-other private", "nikon-d750 slug-owner private"]);
  });
});
