// Browsing by camera, lens and year (src/browse): the counts, names and pages each kind of viewer
// gets, keyset paging, and the 404s, against a fresh database of the run's kind through the
// service; then the pages themselves on the test server, probed with the privacy world
// (SECURITY.md 43): a visitor's /cameras, /lenses, /years and every page never show or count the
// unlisted, members-only or private photo, and do show the public one.
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ANONYMOUS_VIEWER, type SessionUser, toViewer, type Viewer } from "@/src/access/viewer";
import { findRenamedCamera, getBrowsePage, listBrowseEntries, makerOf } from "@/src/browse/browse.service";
import type { BrowseKind } from "@/src/browse/browse-paths";
import type { Database, PhotoStatus, Visibility } from "@/src/db/database";
import { AppError } from "@/src/errors/app-error";
import { announcePhotosChanged } from "@/src/photos/photo-changes";
import { insertPhoto } from "@/src/photos/photos.repository";
import { searchPhotosForViewer } from "@/src/search/search.service";
import { buildNewUser, insertUser } from "@/src/users/users.repository";
import { createPrivacyWorld, expectNoSecrets, type PrivacyWorld } from "./helpers/privacy-world";
import { TestClient } from "./helpers/test-client";
import { openFreshDatabase } from "./helpers/test-database";
import { uploadCorpusFile, waitForProcessing } from "./helpers/photos";
import { enterShareLink } from "./helpers/share-entry";

describe("the browse service", () => {
  let db: Kysely<Database>;
  let remove: () => Promise<void>;
  let admin: SessionUser;
  let alice: SessionUser;
  let bob: SessionUser;
  let member: SessionUser;
  let counter = 0;

  async function makeUser(role: SessionUser["role"], name: string): Promise<SessionUser> {
    const row = buildNewUser({ email: `${name}-${Date.now()}@example.test`, name, role, passwordHash: null, now: new Date().toISOString() });
    await insertUser(db, row);
    return { id: row.id, email: row.email, name: row.name, role };
  }

  interface PhotoOptions {
    camera?: [string, string, string] | null;
    lens?: [string, string] | null;
    status?: PhotoStatus;
    sortAt?: string;
    /** The date taken; by default the sort date (a photo with an EXIF date). Null: unknown, sortAt is then its upload time. */
    takenAt?: string | null;
    trashed?: boolean;
  }

  const CANON: [string, string, string] = ["Canon", "Canon EOS 40D", "canon-eos-40d"];
  const NIKON: [string, string, string] = ["NIKON CORPORATION", "NIKON D70s", "nikon-d70s"];
  const PENTAX: [string, string, string] = ["PENTAX Corporation", "PENTAX K10D", "pentax-k10d"];
  const ZOOM: [string, string] = ["18.0-70.0 mm f/3.5-4.5", "18-0-70-0-mm-f-3-5-4-5"];

  async function makePhoto(ownerId: string, visibility: Visibility, options: PhotoOptions = {}): Promise<string> {
    counter += 1;
    const id = `browse-${String(counter).padStart(3, "0")}`;
    const sortAt = options.sortAt ?? new Date(Date.UTC(2019, 0, 1) + counter * 3_600_000).toISOString();
    const camera = options.camera === undefined ? CANON : options.camera;
    const lens = options.lens ?? null;
    await insertPhoto(db, {
      id,
      owner_id: ownerId,
      sha256: id,
      status: options.status ?? "ready",
      visibility,
      original_key: `originals/${id}`,
      original_name: `${id}.jpg`,
      original_type: "image/jpeg",
      original_size: 1000,
      width: 300,
      height: 200,
      camera_make: camera?.[0] ?? null,
      camera_model: camera?.[1] ?? null,
      camera_slug: camera?.[2] ?? null,
      lens: lens?.[0] ?? null,
      lens_slug: lens?.[1] ?? null,
      taken_at: options.takenAt === undefined ? sortAt : options.takenAt,
      sort_at: sortAt,
      created_at: sortAt,
      updated_at: sortAt,
      ...(options.trashed ? { trashed_at: new Date().toISOString() } : {}),
    });
    return id;
  }

  async function codeOf(promise: Promise<unknown>): Promise<string> {
    try {
      await promise;
    } catch (error) {
      if (error instanceof AppError) return error.code;
      throw error;
    }
    return "OK";
  }

  /** Every photo id of the page, walking the cursor `limit` at a time. */
  async function walk(viewer: Viewer, kind: BrowseKind, key: string, limit: number): Promise<string[]> {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let guard = 0; guard < 50; guard += 1) {
      const page = await getBrowsePage(db, viewer, kind, key, { cursor, limit });
      seen.push(...page.photos.map((photo) => photo.id));
      if (!page.nextCursor) return seen;
      cursor = page.nextCursor;
    }
    throw new Error("the cursor never ended");
  }

  const ids: Record<string, string> = {};

  beforeAll(async () => {
    ({ db, remove } = await openFreshDatabase(inject("databaseKind")));
    admin = await makeUser("admin", "browse-admin");
    alice = await makeUser("editor", "browse-alice");
    bob = await makeUser("editor", "browse-bob");
    member = await makeUser("viewer", "browse-member");
    // Canon: five public photos (two the same moment, so the keyset's tie-break on id counts), one
    // each members, unlisted, private (Alice's), one private of Bob's, one still processing, one in
    // the trash. Nikon: only a private photo. Pentax: only a members-only photo. One photo without EXIF.
    for (let index = 0; index < 5; index += 1) {
      ids[`canonPublic${index}`] = await makePhoto(alice.id, "public", { lens: ZOOM, sortAt: index === 4 ? "2019-01-01T03:00:00.000Z" : undefined });
    }
    ids.canonMembers = await makePhoto(alice.id, "members");
    ids.canonUnlisted = await makePhoto(alice.id, "unlisted");
    ids.canonPrivate = await makePhoto(alice.id, "private");
    ids.canonBobPrivate = await makePhoto(bob.id, "private");
    ids.canonProcessing = await makePhoto(alice.id, "public", { status: "processing" });
    ids.canonTrashed = await makePhoto(alice.id, "public", { trashed: true });
    ids.nikonPrivate = await makePhoto(alice.id, "private", { camera: NIKON, lens: ZOOM, sortAt: "2008-05-30T15:56:01" });
    ids.pentaxMembers = await makePhoto(bob.id, "members", { camera: PENTAX, sortAt: "2007-02-02T10:00:00" });
    ids.noExif = await makePhoto(alice.id, "public", { camera: null, sortAt: "2024-07-01T12:00:00.000Z" });
    // Another spelling of the Canon's words behind the same slug: the commonest one names it.
    ids.canonOtherSpelling = await makePhoto(bob.id, "public", { camera: ["CANON", "canon eos 40d", "canon-eos-40d"] });
    announcePhotosChanged();
  });
  afterAll(() => remove());

  const countsOf = async (viewer: Viewer, kind: BrowseKind) =>
    Object.fromEntries((await listBrowseEntries(db, viewer, kind)).map((entry) => [entry.key, entry.count]));

  it("counts each camera's, lens's and year's photos as each kind of viewer may list them", async () => {
    // Visitors: public and finished only. Members: members-only too. Alice: her own of any
    // visibility and state (not the trash), not Bob's private. Admins: all but others' unfinished.
    expect(await countsOf(ANONYMOUS_VIEWER, "camera")).toEqual({ "canon-eos-40d": 6 });
    expect(await countsOf(toViewer(member), "camera")).toEqual({ "canon-eos-40d": 7, "pentax-k10d": 1 });
    expect(await countsOf(toViewer(alice), "camera")).toEqual({ "canon-eos-40d": 10, "nikon-d70s": 1, "pentax-k10d": 1 });
    expect(await countsOf(toViewer(admin), "camera")).toEqual({ "canon-eos-40d": 10, "nikon-d70s": 1, "pentax-k10d": 1 });
    expect(await countsOf(ANONYMOUS_VIEWER, "lens")).toEqual({ [ZOOM[1]]: 5 });
    expect(await countsOf(toViewer(alice), "lens")).toEqual({ [ZOOM[1]]: 6 });
    expect(await countsOf(ANONYMOUS_VIEWER, "year")).toEqual({ "2019": 6, "2024": 1 });
    expect(await countsOf(toViewer(member), "year")).toEqual({ "2019": 7, "2024": 1, "2007": 1 });
    expect(await countsOf(toViewer(alice), "year")).toEqual({ "2019": 10, "2024": 1, "2008": 1, "2007": 1 });
  });

  it("names each camera by its commonest EXIF words, groups cameras by maker and covers each with its newest photo", async () => {
    const cameras = await listBrowseEntries(db, toViewer(alice), "camera");
    expect(cameras.map((entry) => [entry.group, entry.name, entry.path])).toEqual([
      ["Canon", "Canon EOS 40D", "/cameras/canon-eos-40d"],
      ["Nikon", "Nikon D70s", "/cameras/nikon-d70s"],
      ["Pentax", "Pentax K10D", "/cameras/pentax-k10d"],
    ]);
    // The visitor's Canon cover is the newest public photo: never the members, private or processing one.
    const [canon] = await listBrowseEntries(db, ANONYMOUS_VIEWER, "camera");
    expect(canon.cover?.id).toBe(ids.canonOtherSpelling);
    expect((await listBrowseEntries(db, ANONYMOUS_VIEWER, "lens"))[0]).toMatchObject({ name: ZOOM[0], path: `/lenses/${ZOOM[1]}` });
    expect((await listBrowseEntries(db, toViewer(member), "year")).map((entry) => entry.key)).toEqual(["2024", "2019", "2007"]);
    expect(makerOf("DJI")).toBe("DJI");
    expect(makerOf(null)).toBe("Other");
  });

  it("pages a camera, a lens and a year by keyset in gallery order, the same photos as one page", async () => {
    for (const viewer of [ANONYMOUS_VIEWER, toViewer(member), toViewer(alice), toViewer(admin)]) {
      for (const [kind, key] of [["camera", "canon-eos-40d"], ["lens", ZOOM[1]], ["year", "2019"]] as Array<[BrowseKind, string]>) {
        const whole = (await getBrowsePage(db, viewer, kind, key, { limit: 100 })).photos.map((photo) => photo.id);
        expect(await walk(viewer, kind, key, 2), `${kind} ${key}`).toEqual(whole);
        expect(new Set(whole).size).toBe(whole.length);
      }
    }
    const visitorCanon = await walk(ANONYMOUS_VIEWER, "camera", "canon-eos-40d", 2);
    expect(visitorCanon).toHaveLength(6);
    for (const hidden of [ids.canonMembers, ids.canonUnlisted, ids.canonPrivate, ids.canonBobPrivate, ids.canonProcessing, ids.canonTrashed]) {
      expect(visitorCanon).not.toContain(hidden);
    }
    const aliceCanon = await walk(toViewer(alice), "camera", "canon-eos-40d", 3);
    expect(aliceCanon).toEqual(expect.arrayContaining([ids.canonUnlisted, ids.canonPrivate, ids.canonProcessing]));
    expect(aliceCanon).not.toContain(ids.canonBobPrivate);
    expect(aliceCanon).not.toContain(ids.canonTrashed);
    const page = await getBrowsePage(db, toViewer(member), "camera", "canon-eos-40d", { limit: 3 });
    expect(page).toMatchObject({ name: "Canon EOS 40D", count: 7, path: "/cameras/canon-eos-40d" });
  });

  it("answers 404 for a camera, lens or year the viewer may see nothing of, and for keys that name nothing", async () => {
    expect(await codeOf(getBrowsePage(db, ANONYMOUS_VIEWER, "camera", "nikon-d70s"))).toBe("NOT_FOUND");
    expect(await codeOf(getBrowsePage(db, toViewer(member), "camera", "nikon-d70s"))).toBe("NOT_FOUND");
    expect(await codeOf(getBrowsePage(db, toViewer(bob), "camera", "nikon-d70s"))).toBe("NOT_FOUND");
    expect(await codeOf(getBrowsePage(db, toViewer(alice), "camera", "nikon-d70s"))).toBe("OK");
    expect(await codeOf(getBrowsePage(db, ANONYMOUS_VIEWER, "camera", "pentax-k10d"))).toBe("NOT_FOUND");
    expect(await codeOf(getBrowsePage(db, toViewer(member), "camera", "pentax-k10d"))).toBe("OK");
    expect(await codeOf(getBrowsePage(db, ANONYMOUS_VIEWER, "year", "2008"))).toBe("NOT_FOUND");
    for (const [kind, key] of [
      ["camera", "no-such-camera"],
      ["camera", "\u0000"],
      ["camera", ""],
      ["camera", "Canon-EOS-40D"],
      ["lens", "%00"],
      ["year", "abcd"],
      ["year", "99999"],
      ["year", "0042"],
      ["year", "2019 "],
    ] as Array<[BrowseKind, string]>) {
      expect(await codeOf(getBrowsePage(db, toViewer(admin), kind, key)), `${kind} ${JSON.stringify(key)}`).toBe("NOT_FOUND");
    }
    expect(await codeOf(getBrowsePage(db, ANONYMOUS_VIEWER, "camera", "canon-eos-40d", { cursor: "not a cursor!" }))).toBe("BAD_REQUEST");
  });

  it("forgets its counts when photos change", async () => {
    expect((await countsOf(ANONYMOUS_VIEWER, "camera"))["canon-eos-40d"]).toBe(6);
    const added = await makePhoto(bob.id, "public");
    announcePhotosChanged();
    expect((await countsOf(ANONYMOUS_VIEWER, "camera"))["canon-eos-40d"]).toBe(7);
    await db.updateTable("photos").set({ visibility: "private" }).where("id", "=", added).execute();
    announcePhotosChanged();
    expect((await countsOf(ANONYMOUS_VIEWER, "camera"))["canon-eos-40d"]).toBe(6);
  });

  it("files a photo without a date taken under Date unknown, not its upload year, for those who may list it", async () => {
    // Uploaded in 2025 without an EXIF date: sort_at is the upload time, the date taken unknown.
    const undated = await makePhoto(bob.id, "private", { camera: null, sortAt: "2025-03-01T10:00:00.000Z", takenAt: null });
    announcePhotosChanged();
    const bobYears = await listBrowseEntries(db, toViewer(bob), "year");
    expect(bobYears.at(-1)).toMatchObject({ key: "unknown", name: "Date unknown", path: "/years/unknown", count: 1 });
    expect(bobYears.map((entry) => entry.key)).not.toContain("2025");
    expect(await codeOf(getBrowsePage(db, toViewer(bob), "year", "2025"))).toBe("NOT_FOUND");
    expect((await getBrowsePage(db, toViewer(bob), "year", "unknown")).photos.map((photo) => photo.id)).toEqual([undated]);
    // Bob's private photo is nobody else's to list: no "Date unknown" for a visitor, and its page is a 404.
    expect(await countsOf(ANONYMOUS_VIEWER, "year")).not.toHaveProperty("unknown");
    expect(await codeOf(getBrowsePage(db, ANONYMOUS_VIEWER, "year", "unknown"))).toBe("NOT_FOUND");
    // Dated by hand (what the photo editor writes): it moves to that year.
    await db.updateTable("photos").set({ taken_at: "2010-06-01T09:00:00", sort_at: "2010-06-01T09:00:00" }).where("id", "=", undated).execute();
    announcePhotosChanged();
    expect(await countsOf(toViewer(bob), "year")).toMatchObject({ "2010": 1 });
    expect(await countsOf(toViewer(bob), "year")).not.toHaveProperty("unknown");
    expect((await getBrowsePage(db, toViewer(bob), "year", "2010")).photos.map((photo) => photo.id)).toContain(undated);
  });

  it("still answers a camera's URL name from before company words were dropped, only to those who may list it", async () => {
    // Before 2026-11-29 these were /cameras/olympus-imaging-corp-e-p3 and camera:eastman-kodak-company-…
    const olympus = await makePhoto(alice.id, "public", { camera: ["OLYMPUS IMAGING CORP.", "E-P3", "olympus-e-p3"] });
    const kodak = await makePhoto(alice.id, "private", { camera: ["EASTMAN KODAK COMPANY", "KODAK CX7530 ZOOM DIGITAL CAMERA", "kodak-cx7530-zoom-digital-camera"] });
    announcePhotosChanged();
    expect(await findRenamedCamera(db, ANONYMOUS_VIEWER, "olympus-imaging-corp-e-p3")).toBe("olympus-e-p3");
    expect(await findRenamedCamera(db, toViewer(alice), "eastman-kodak-company-kodak-cx7530-zoom-digital-camera")).toBe("kodak-cx7530-zoom-digital-camera");
    // Alice's private Kodak is nobody else's: its old name names nothing for them.
    expect(await findRenamedCamera(db, ANONYMOUS_VIEWER, "eastman-kodak-company-kodak-cx7530-zoom-digital-camera")).toBeNull();
    expect(await findRenamedCamera(db, toViewer(bob), "eastman-kodak-company-kodak-cx7530-zoom-digital-camera")).toBeNull();
    // Unchanged names and names of nothing send nowhere.
    expect(await findRenamedCamera(db, ANONYMOUS_VIEWER, "canon-eos-40d")).toBeNull();
    expect(await findRenamedCamera(db, ANONYMOUS_VIEWER, "no-such-camera")).toBeNull();

    const found = async (viewer: Viewer, q: string) => (await searchPhotosForViewer(db, viewer, { q, limit: 10 })).photos.map((photo) => photo.id);
    expect(await found(ANONYMOUS_VIEWER, "camera:olympus-imaging-corp-e-p3")).toEqual([olympus]);
    expect(await found(ANONYMOUS_VIEWER, "camera:olympus-e-p3")).toEqual([olympus]);
    expect(await found(toViewer(alice), "camera:eastman-kodak-company-kodak-cx7530-zoom-digital-camera")).toEqual([kodak]);
    expect(await found(ANONYMOUS_VIEWER, "camera:eastman-kodak-company-kodak-cx7530-zoom-digital-camera")).toEqual([]);

    await db.deleteFrom("photos").where("id", "in", [olympus, kodak]).execute();
    announcePhotosChanged();
    expect(await findRenamedCamera(db, ANONYMOUS_VIEWER, "olympus-imaging-corp-e-p3")).toBeNull();
  });
});

describe("the browse pages, for a visitor and a member (privacy world)", () => {
  let world: PrivacyWorld;
  const slugs: Record<string, { camera: string | null; lens: string | null; year: string | null }> = {};

  async function page(client: TestClient, path: string): Promise<{ status: number; text: string }> {
    const response = await client.request(path);
    return { status: response.status, text: await response.text() };
  }

  /** The count a page's heading shows ("3 photos"), or null on a 404. */
  async function countOn(client: TestClient, path: string): Promise<number | null> {
    const { status, text } = await page(client, path);
    if (status === 404) return null;
    expect(status, path).toBe(200);
    const match = /data-testid="browse-count"[^>]*>([\d,]+)(?:<!-- -->)? photos?</.exec(text);
    expect(match, path).not.toBeNull();
    return Number(match![1].replace(/,/g, ""));
  }

  beforeAll(async () => {
    world = await createPrivacyWorld("browse");
    for (const photo of Object.values(world.photos)) {
      const response = await world.owner.request(`/api/photos/${photo.id}`);
      expect(response.status).toBe(200);
      const { photo: detail } = (await response.json()) as { photo: { cameraSlug: string | null; lensSlug: string | null; takenAt: string | null } };
      slugs[photo.visibility] = { camera: detail.cameraSlug, lens: detail.lensSlug, year: detail.takenAt?.slice(0, 4) ?? null };
    }
  }, 240_000);

  it("each photo has its camera's slug, and the public one a lens and a year (the positive controls exist)", () => {
    expect(slugs.public).toEqual({ camera: "apple-iphone-6", lens: expect.stringMatching(/^iphone-6-back-camera/), year: expect.stringMatching(/^\d{4}$/) });
    expect(slugs.unlisted.camera).toBe("canon-eos-40d");
    expect(slugs.members.camera).toBe("pentax-k10d");
    expect(slugs.private.camera).toBe("nikon-d70s");
  });

  it("a visitor's /cameras, /lenses and /years show the public photo's camera, lens and year, and no secret", async () => {
    const secrets = world.secretsHiddenFrom("visitor");
    for (const [path, shown] of [
      ["/cameras", `/cameras/${slugs.public.camera}`],
      ["/lenses", `/lenses/${slugs.public.lens}`],
      ["/years", `/years/${slugs.public.year}`],
    ] as const) {
      const { status, text } = await page(world.visitor, path);
      expect(status, path).toBe(200);
      expect(text, path).toContain(`href="${shown}"`);
      expectNoSecrets(text, secrets, `a visitor's ${path}`);
    }
  });

  it("a visitor's camera, lens and year pages show the public photo and never the others", async () => {
    const secrets = world.secretsHiddenFrom("visitor");
    for (const kind of ["camera", "lens", "year"] as const) {
      const root = { camera: "/cameras", lens: "/lenses", year: "/years" }[kind];
      const publicPath = `${root}/${slugs.public[kind]}`;
      const shown = await page(world.visitor, publicPath);
      expect(shown.status, publicPath).toBe(200);
      expect(shown.text, publicPath).toContain(world.photos.public.id);
      expectNoSecrets(shown.text, secrets, `a visitor's ${publicPath}`);
      for (const visibility of ["unlisted", "members", "private"] as const) {
        const key = slugs[visibility][kind];
        if (!key) continue;
        // Other test files upload the same cameras as public photos: the page may exist, but never with these.
        const { status, text } = await page(world.visitor, `${root}/${key}`);
        expect([200, 404], `${root}/${key}`).toContain(status);
        expectNoSecrets(text, secrets, `a visitor's ${root}/${key}`);
      }
    }
  });

  it("a visitor's counts leave out what they may not see: the owner counts their own photo on top", async () => {
    for (const visibility of ["unlisted", "members", "private"] as const) {
      const path = `/cameras/${slugs[visibility].camera}`;
      const visitorCount = (await countOn(world.visitor, path)) ?? 0;
      const ownerCount = (await countOn(world.owner, path)) ?? 0;
      expect(ownerCount, path).toBeGreaterThanOrEqual(visitorCount + 1);
      const ownerPage = await page(world.owner, path);
      expect(ownerPage.text, path).toContain(world.photos[visibility].id);
    }
    const publicPath = `/cameras/${slugs.public.camera}`;
    expect(await countOn(world.visitor, publicPath)).toBeGreaterThanOrEqual(1);
  });

  it("a member sees the members-only photo on its camera's page, not the unlisted or private ones", async () => {
    const secrets = world.secretsHiddenFrom("member");
    const membersPath = `/cameras/${slugs.members.camera}`;
    const { status, text } = await page(world.member, membersPath);
    expect(status).toBe(200);
    expect(text).toContain(world.photos.members.id);
    expectNoSecrets(text, secrets, `a member's ${membersPath}`);
    for (const path of ["/cameras", "/lenses", "/years", `/cameras/${slugs.unlisted.camera}`, `/cameras/${slugs.private.camera}`, `/years/${slugs.private.year}`]) {
      const answer = await page(world.member, path);
      expect([200, 404], path).toContain(answer.status);
      expectNoSecrets(answer.text, secrets, `a member's ${path}`);
    }
  });

  it("answers the site's 404 page, never a 500, for addresses that name nothing", async () => {
    for (const path of ["/years/abcd", "/years/99999", "/years/0042", "/years/1066", "/cameras/no-such-camera-anywhere", "/lenses/-"]) {
      const { status, text } = await page(world.visitor, path);
      expect(status, path).toBe(404);
      expect(text, path).toContain("<html");
    }
    // A NUL names nothing any database could hold: the interceptor's 400 page (SECURITY.md 58).
    for (const path of ["/cameras/%00", "/lenses/%00"]) {
      const { status, text } = await page(world.visitor, path);
      expect(status, path).toBe(400);
      expect(text, path).toContain("<html");
    }
  });

  it("sends another spelling of a slug on to the camera's own address", async () => {
    const response = await world.visitor.request(`/cameras/${slugs.public.camera!.toUpperCase()}`);
    expect(response.status).toBe(308);
    expect(response.headers.get("location")).toMatch(new RegExp(`/cameras/${slugs.public.camera}$`));
  });

  it("sends a camera's URL name from before company words were dropped on to its address", async () => {
    // EASTMAN KODAK COMPANY / KODAK CX7530 ZOOM DIGITAL CAMERA was eastman-kodak-company-kodak-cx7530-… until 2026-11-29.
    const kodak = await uploadCorpusFile(world.owner, "exif-samples/jpg/Kodak_CX7530.jpg");
    await waitForProcessing(world.owner, kodak.id);
    expect((await world.owner.request(`/api/photos/${kodak.id}`, { method: "PATCH", body: { json: { visibility: "public" } } })).status).toBe(200);
    const response = await world.visitor.request("/cameras/eastman-kodak-company-kodak-cx7530-zoom-digital-camera");
    expect(response.status).toBe(308);
    expect(response.headers.get("location")).toMatch(/\/cameras\/kodak-cx7530-zoom-digital-camera$/);
    const search = await world.visitor.request("/api/search?q=camera:eastman-kodak-company-kodak-cx7530-zoom-digital-camera");
    expect(((await search.json()) as { photos: Array<{ id: string }> }).photos.map((photo) => photo.id)).toContain(kodak.id);
  });

  it("the photo page links the camera, lens and year; a share link's page does not", async () => {
    const photoPage = await page(world.visitor, `/p/${world.photos.public.id}`);
    expect(photoPage.text).toContain(`href="/cameras/${slugs.public.camera}"`);
    expect(photoPage.text).toContain(`href="/lenses/${slugs.public.lens}"`);
    expect(photoPage.text).toContain(`href="/years/${slugs.public.year}"`);
    // The share's visitor: the private photo's EXIF card, with no way into the gallery's lists.
    const shareClient = new TestClient();
    expect((await enterShareLink(shareClient, world.share.key)).status).toBe(303);
    const sharePage = await page(shareClient, `/s/${world.share.key}/p/${world.photos.private.id}`);
    expect(sharePage.status).toBe(200);
    // The link shows EXIF (the default): the card is there, only without the links.
    expect(sharePage.text).toContain('data-testid="exif-summary"');
    expect(sharePage.text).toContain("D70s");
    expect(sharePage.text).not.toContain('href="/cameras/');
    expect(sharePage.text).not.toContain('href="/years/');
  });
});
