import fs from "node:fs";
import path from "node:path";
import type { Kysely } from "kysely";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Database } from "@/src/db/database";
import { corpusFile, uploadFiles, waitForProcessing } from "./helpers/photos";
import { startTestApp, type TestApp } from "./helpers/test-app";
import { TestClient } from "./helpers/test-client";
import { openTestDatabase } from "./helpers/test-database";
import { TEST_SECRET } from "./setup/global-setup";
import { DETECT_FACES_JOB, DETECT_PRIORITY } from "@/src/faces/face-job-kinds";

// People (issue 32), against a server of its own: turning detection on queues every photo of the
// site, which must not reach the shared test app's photos. Detection runs on three photos (about a
// second each): the corpus portrait, its EXIF-turned copy, and face-api's demo photo with four
// people, two of whom are only 0.46 apart; a 1×1 photo is looked at without running detection.
// Each user's photos are looked at only once they agree (face-consent.service.ts): the admin and
// the member both exist before people is turned on, and are asked first.

const ADMIN = { email: "people-admin@example.test", password: "people-password-1", name: "Pat People" };
const PORTRAIT = "immich-test-assets/metadata/faces/portrait.jpg";
const PORTRAIT_TURNED = "immich-test-assets/metadata/faces/portrait-orientation-6.jpg";
const DEMO_FOUR_PEOPLE = path.resolve(import.meta.dirname, "../node_modules/@vladmandic/face-api/demo/sample4.jpg");

interface PersonBody {
  id: string;
  isOwn: boolean;
  name: string | null;
  isHidden: boolean;
  photoCount: number;
  cover: { faceId: string; photoId: string; box: { left: number; top: number; width: number; height: number }; imageUrl: string | null } | null;
}
interface FaceBody {
  id: string;
  source: "detected" | "manual";
  personId: string | null;
  personName: string | null;
  box: { left: number; top: number; width: number; height: number };
}
interface ProgressBody {
  settings: { enabled: boolean; matchThreshold: number; membersSeePeople: boolean; consentText: string };
  progress: { scanned: number; total: number; faces: number };
}

let app: TestApp;
let db: Kysely<Database>;
let admin: TestClient;
let member: TestClient;
const photoIds: Record<string, string> = {};

async function signedIn(email: string, password: string): Promise<TestClient> {
  const client = new TestClient(app.url);
  await client.signIn(email, password);
  expect(client.sessionToken).toBeTruthy();
  return client;
}

async function upload(client: TestClient, name: string, bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const response = await uploadFiles(client, [{ bytes, name }]);
  expect(response.status, await response.clone().text()).toBe(201);
  const id = ((await response.json()) as { photos: Array<{ id: string }> }).photos[0].id;
  expect((await waitForProcessing(client, id)).status).toBe("ready");
  return id;
}

async function json<T>(response: Response, status = 200): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as T;
}

const faceSettings = (client = admin) => client.request("/api/admin/faces");
const setFaces = (change: Record<string, unknown>, client = admin) => client.request("/api/admin/faces", { method: "PATCH", body: { json: change } });
const people = async (query = "", client = admin) => (await json<{ people: PersonBody[] }>(await client.request(`/api/people${query}`))).people;
const photoFaces = async (photoId: string, client = admin) => (await json<{ faces: FaceBody[]; isCapped: boolean }>(await client.request(`/api/photos/${photoId}/faces`))).faces;
const updatePerson = (id: string, change: Record<string, unknown>, client = admin) => client.request(`/api/people/${id}`, { method: "PATCH", body: { json: change } });
const answerConsent = (agreed: boolean, client: TestClient) => client.request("/api/faces/consent", { method: "PUT", body: { json: { agreed } } });

/** Waits until detection has looked at every ready photo (the dashboard's progress says so). */
async function waitForScans(expected: number): Promise<ProgressBody> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const body = await json<ProgressBody>(await faceSettings());
    if (body.progress.scanned >= expected) return body;
    if (Date.now() > deadline) throw new Error(`Detection looked at ${body.progress.scanned} of ${expected} photos`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

/** Waits until every job has finished (nothing queued or running). */
async function waitForIdleQueue(): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const busy = await db.selectFrom("jobs").select("id").where("status", "in", ["queued", "running"]).execute();
    if (busy.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error("The job queue did not empty");
}

async function descriptorsStored(): Promise<number> {
  return (await db.selectFrom("faces").select("id").where("descriptor", "is not", null).execute()).length;
}

beforeAll(async () => {
  app = await startTestApp(inject("databaseKind"), { NEXTAUTH_SECRET: TEST_SECRET, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_NAME: ADMIN.name, TRUST_PROXY: "true" });
  db = openTestDatabase({ dataDirectory: app.dataDirectory, databaseUrl: app.databaseUrl || undefined });
  admin = await signedIn(ADMIN.email, ADMIN.password);
  const memberUser = { email: "people-member@example.test", password: "people-member-password-1" };
  const created = await admin.request("/api/admin/users", { body: { json: { ...memberUser, name: "Mo Member", role: "editor" } } });
  expect(created.status).toBe(201);
  member = await signedIn(memberUser.email, memberUser.password);
  // Before people is turned on: the backfill must find these.
  photoIds.portrait = await upload(admin, "portrait.jpg", corpusFile(PORTRAIT));
  const onePixel = await sharp({ create: { width: 1, height: 1, channels: 3, background: "#808080" } }).jpeg().toBuffer();
  photoIds.onePixel = await upload(admin, "one-pixel.jpg", new Uint8Array(onePixel));
  photoIds.memberPhoto = await upload(member, "member-portrait.jpg", corpusFile(PORTRAIT_TURNED));
  await waitForIdleQueue();
}, 180_000);

afterAll(async () => {
  await db?.destroy();
  await app?.stop();
});

describe("people: off by default", () => {
  it("computes and stores nothing until an admin turns it on", async () => {
    const body = await json<ProgressBody>(await faceSettings());
    expect(body.settings.enabled).toBe(false);
    // Progress counts the photos of those who agreed: nobody has been asked yet.
    expect(body.progress).toEqual({ scanned: 0, total: 0, faces: 0 });
    expect(await db.selectFrom("faces").select("id").execute()).toEqual([]);
    expect(await db.selectFrom("jobs").select("id").where("kind", "in", ["photo.faces", "faces.backfill"]).execute()).toEqual([]);
  });

  it("only admins may turn it on", async () => {
    expect((await setFaces({ enabled: true }, member)).status).toBe(403);
    expect((await setFaces({ matchThreshold: 2 })).status).toBe(422);
    expect((await setFaces({})).status).toBe(422);
  });
});

describe("people: detection and clustering", () => {
  it("turned on, a backfill looks at every existing photo of those who agreed, the 1×1 one too; nothing of anyone not asked yet", async () => {
    const turnedOn = await json<ProgressBody>(await setFaces({ enabled: true }));
    expect(turnedOn.settings).toMatchObject({ enabled: true, matchThreshold: 0.38, membersSeePeople: false });
    // Asked once, on /people, in the admin's words (the default ones here).
    expect(await (await admin.request("/people")).text()).toContain("Look for faces in your photos?");
    expect(await json(await answerConsent(true, admin))).toMatchObject({ enabled: true, answer: "agreed" });
    expect((await waitForScans(2)).progress).toEqual({ scanned: 2, total: 2, faces: 1 });
    await waitForIdleQueue();
    // The member has not answered: their photo was never queued nor looked at.
    expect(await db.selectFrom("photo_face_scans").select("photo_id").where("photo_id", "=", photoIds.memberPhoto).execute()).toEqual([]);
    expect(await db.selectFrom("jobs").select("id").where("photo_id", "=", photoIds.memberPhoto).where("kind", "=", DETECT_FACES_JOB).execute()).toEqual([]);
    expect(await people("", member)).toEqual([]);
    await json(await answerConsent(true, member));
    const done = await waitForScans(3);
    expect(done.progress).toEqual({ scanned: 3, total: 3, faces: 2 });
    expect(await photoFaces(photoIds.onePixel)).toEqual([]);
    const [face] = await photoFaces(photoIds.portrait);
    // The face sits in the upper middle of the portrait, as fractions of the photo.
    expect(face.box.left).toBeGreaterThan(0.2);
    expect(face.box.left + face.box.width).toBeLessThan(0.8);
    expect(face.box.top).toBeLessThan(0.5);
  });

  it("new photos are looked at after they are ready; the turned copy joins the portrait's person, four strangers stay four", async () => {
    photoIds.portraitTurned = await upload(admin, "portrait-turned.jpg", corpusFile(PORTRAIT_TURNED));
    photoIds.demo = await upload(admin, "sample4.jpg", new Uint8Array(fs.readFileSync(DEMO_FOUR_PEOPLE)));
    const done = await waitForScans(5);
    expect(done.progress.faces).toBe(2 + 1 + 4);
    const mine = await people();
    expect(mine.map((person) => person.photoCount).sort()).toEqual([1, 1, 1, 1, 2]);
    const portraitPerson = mine.find((person) => person.photoCount === 2)!;
    const [turnedFace] = await photoFaces(photoIds.portraitTurned);
    expect(turnedFace.personId).toBe(portraitPerson.id);
    expect(new Set((await photoFaces(photoIds.demo)).map((face) => face.personId)).size).toBe(4);
    expect(portraitPerson.cover?.imageUrl).toMatch(/^\/media\//);
  });

  it("each owner's people are their own: the member's copy of the same face is the member's person", async () => {
    const theirs = await people("", member);
    expect(theirs).toHaveLength(1);
    expect((await people()).map((person) => person.id)).not.toContain(theirs[0].id);
  });

  it("runs the models in a process of its own, never in the server's", () => {
    const serverPid = app.server.process.pid;
    const detectors = fs
      .readdirSync("/proc")
      .filter((entry) => /^\d+$/.test(entry))
      .filter((pid) => {
        try {
          return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("face-detector-process.mjs");
        } catch {
          return false;
        }
      })
      .map((pid) => Number(fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[1]));
    expect(detectors).toContain(serverPid);
  });

  it("no answer carries a descriptor", async () => {
    for (const url of ["/api/people?hidden=include", `/api/photos/${photoIds.demo}/faces`, "/api/admin/faces"]) {
      expect(await (await admin.request(url)).text()).not.toMatch(/descriptor/i);
    }
  });
});

describe("people: naming, hiding, merging, splitting", () => {
  let grandma: PersonBody;

  it("names a person; control characters go, a NUL or 10 kB is refused", async () => {
    grandma = (await people()).find((person) => person.photoCount === 2)!;
    const named = await json<{ person: PersonBody }>(await updatePerson(grandma.id, { name: "Grandma\u0007 Zelda\u001b" }));
    expect(named.person.name).toBe("Grandma Zelda");
    expect((await updatePerson(grandma.id, { name: "Grandma\u0000" })).status).toBe(400);
    expect((await updatePerson(grandma.id, { name: "x".repeat(10_000) })).status).toBe(422);
    expect((await updatePerson(grandma.id, { name: "" })).status).toBe(422);
    expect((await people())[0].name).toBe("Grandma Zelda");
  });

  it("another user's person or face is a 404, like one that does not exist", async () => {
    expect((await updatePerson(grandma.id, { name: "Mine now" }, member)).status).toBe(404);
    expect((await member.request(`/api/people/${grandma.id}`)).status).toBe(404);
    expect((await member.request(`/api/people/${grandma.id}/merge`, { body: { json: { intoPersonId: grandma.id } } })).status).toBe(422);
    const theirs = (await people("", member))[0];
    expect((await member.request(`/api/people/${theirs.id}/merge`, { body: { json: { intoPersonId: grandma.id } } })).status).toBe(404);
    expect((await member.request(`/api/faces/${grandma.cover!.faceId}/split`, { method: "POST" })).status).toBe(404);
    expect((await updatePerson("no-such-person", { name: "Nobody" })).status).toBe(404);
    expect((await member.request(`/api/photos/${photoIds.portrait}/faces`)).status).toBe(200);
    expect(await photoFaces(photoIds.portrait, member)).toEqual([]);
  });

  it("merging a person into themselves is refused; merging two moves every face", async () => {
    expect((await admin.request(`/api/people/${grandma.id}/merge`, { body: { json: { intoPersonId: grandma.id } } })).status).toBe(422);
    const [turnedFace] = await photoFaces(photoIds.portraitTurned);
    const split = await json<{ person: PersonBody }>(await admin.request(`/api/faces/${turnedFace.id}/split`, { method: "POST" }), 201);
    expect(split.person.name).toBeNull();
    expect(split.person.photoCount).toBe(1);
    expect((await photoFaces(photoIds.portraitTurned))[0].personId).toBe(split.person.id);
    const merged = await json<{ person: PersonBody }>(await admin.request(`/api/people/${split.person.id}/merge`, { body: { json: { intoPersonId: grandma.id } } }));
    expect(merged.person).toMatchObject({ id: grandma.id, name: "Grandma Zelda", photoCount: 2 });
    expect((await admin.request(`/api/people/${split.person.id}`)).status).toBe(404);
  });

  it("a cover must be one of the person's faces", async () => {
    const [demoFace] = await photoFaces(photoIds.demo);
    expect((await updatePerson(grandma.id, { coverFaceId: demoFace.id })).status).toBe(422);
    const [turnedFace] = await photoFaces(photoIds.portraitTurned);
    expect((await json<{ person: PersonBody }>(await updatePerson(grandma.id, { coverFaceId: turnedFace.id }))).person.cover?.photoId).toBe(photoIds.portraitTurned);
  });

  it("a hidden person leaves the list and the photo's faces until asked for", async () => {
    const stranger = (await people()).find((person) => person.name === null)!;
    await json(await updatePerson(stranger.id, { isHidden: true }));
    expect((await people()).map((person) => person.id)).not.toContain(stranger.id);
    expect((await people("?hidden=only")).map((person) => person.id)).toEqual([stranger.id]);
    expect((await photoFaces(photoIds.demo)).map((face) => face.personId)).not.toContain(stranger.id);
  });
});

const addFace = (photoId: string, body: Record<string, unknown>, client = admin) => client.request(`/api/photos/${photoId}/faces`, { body: { json: body } });
const searchNames = async (q: string, client: TestClient) =>
  (await json<{ photos: Array<{ id: string }> }>(await client.request(`/api/search?q=${encodeURIComponent(q)}`))).photos.map((photo) => Object.entries(photoIds).find(([, id]) => id === photo.id)?.[0] ?? photo.id);
const manualFaceCount = async () => (await db.selectFrom("faces").select("id").where("source", "=", "manual").execute()).length;

describe("people: a face by hand", () => {
  const box = { left: 0.05, top: 0.6, width: 0.2, height: 0.25 };

  it("refuses a box outside the photo or of no size, a 10 kB name, another user's photo or person: nothing stored", async () => {
    const theirs = (await people("", member))[0];
    for (const [body, status] of [
      [{ box: { ...box, left: 0.9 }, name: "Cousin Hand" }, 422],
      [{ box: { ...box, top: -0.1 }, name: "Cousin Hand" }, 422],
      [{ box: { ...box, width: 0 }, name: "Cousin Hand" }, 422],
      [{ box: { ...box, height: 1.5 }, name: "Cousin Hand" }, 422],
      [{ box: { left: 0.1, top: 0.1 }, name: "Cousin Hand" }, 422],
      [{ box, name: "x".repeat(10_000) }, 422],
      [{ box, name: "Cousin\u0000" }, 400],
      [{ box }, 422],
      [{ box, name: "Cousin Hand", personId: theirs.id }, 422],
      [{ box, personId: theirs.id }, 404],
      [{ box, personId: "no-such-person" }, 404],
    ] as const) {
      expect((await addFace(photoIds.portrait, body)).status, JSON.stringify(body).slice(0, 80)).toBe(status);
    }
    expect((await addFace(photoIds.portrait, { box, name: "Not mine" }, member)).status).toBe(404);
    expect((await addFace("no-such-photo", { box, name: "Nobody" })).status).toBe(404);
    expect((await new TestClient(app.url).request(`/api/photos/${photoIds.portrait}/faces`, { body: { json: { box, name: "Visitor" } } })).status).toBe(401);
    expect(await manualFaceCount()).toBe(0);
    expect((await people("?hidden=include")).map((person) => person.name)).not.toContain("Cousin Hand");
  });

  it("names a new person with no detected face; a person already in the photo is a 409", async () => {
    const added = await json<{ face: FaceBody }>(await addFace(photoIds.portrait, { box, name: "Cousin Hand" }), 201);
    expect(added.face).toMatchObject({ source: "manual", personName: "Cousin Hand", box });
    const cousin = (await people()).find((person) => person.name === "Cousin Hand")!;
    expect(cousin).toMatchObject({ isOwn: true, photoCount: 1, cover: { faceId: added.face.id, photoId: photoIds.portrait } });
    const grandma = (await people()).find((person) => person.name === "Grandma Zelda")!;
    expect((await addFace(photoIds.portrait, { box, personId: grandma.id })).status).toBe(409);
    expect((await addFace(photoIds.portrait, { box, personId: cousin.id })).status).toBe(409);
    expect(await manualFaceCount()).toBe(1);
  });

  it("a rescan of the photo keeps the face drawn by hand and finds the detected one again", async () => {
    const before = await photoFaces(photoIds.portrait);
    const scannedAt = (await db.selectFrom("photo_face_scans").select("scanned_at").where("photo_id", "=", photoIds.portrait).executeTakeFirstOrThrow()).scanned_at;
    const now = new Date().toISOString();
    await db.insertInto("jobs").values({ id: crypto.randomUUID(), kind: DETECT_FACES_JOB, photo_id: photoIds.portrait, priority: DETECT_PRIORITY, status: "queued", attempts: 0, created_at: now, updated_at: now }).execute();
    await waitForIdleQueue();
    const after = await db.selectFrom("photo_face_scans").select("scanned_at").where("photo_id", "=", photoIds.portrait).executeTakeFirstOrThrow();
    expect(after.scanned_at > scannedAt).toBe(true);
    const faces = await photoFaces(photoIds.portrait);
    expect(faces.filter((face) => face.source === "manual")).toEqual(before.filter((face) => face.source === "manual"));
    expect(faces.filter((face) => face.source === "detected").map((face) => face.personName)).toEqual(["Grandma Zelda"]);
  });

  it("removes a face drawn by hand (its owner only); a detected face is not removed so", async () => {
    const cousin = (await people()).find((person) => person.name === "Cousin Hand")!;
    const added = await json<{ face: FaceBody }>(await addFace(photoIds.onePixel, { box: { left: 0, top: 0, width: 1, height: 1 }, personId: cousin.id }), 201);
    expect((await people()).find((person) => person.id === cousin.id)?.photoCount).toBe(2);
    const detected = (await photoFaces(photoIds.portrait)).find((face) => face.source === "detected")!;
    expect((await admin.request(`/api/faces/${detected.id}`, { method: "DELETE" })).status).toBe(422);
    expect((await member.request(`/api/faces/${added.face.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await admin.request(`/api/faces/${added.face.id}`, { method: "DELETE" })).status).toBe(204);
    expect(await photoFaces(photoIds.onePixel)).toEqual([]);
    expect(await manualFaceCount()).toBe(1);
  });
});

describe("people: who sees them", () => {
  let grandma: PersonBody;

  it("off (the default): a member sees only their own people, and finds nobody else by person:", async () => {
    grandma = (await people()).find((person) => person.name === "Grandma Zelda")!;
    // The portrait for members, its turned copy (Grandma's chosen cover) private to its owner.
    for (const [photo, visibility] of [[photoIds.portrait, "members"], [photoIds.portraitTurned, "private"]]) {
      expect((await admin.request(`/api/photos/${photo}`, { method: "PATCH", body: { json: { visibility } } })).status).toBe(200);
    }
    expect((await people("", member)).every((person) => person.isOwn)).toBe(true);
    expect((await member.request(`/api/people/${grandma.id}`)).status).toBe(404);
    expect(await photoFaces(photoIds.portrait, member)).toEqual([]);
    expect(await searchNames('person:"Grandma Zelda"', member)).toEqual([]);
    expect(await searchNames('person:"Grandma Zelda"', admin)).toEqual(expect.arrayContaining(["portrait", "portraitTurned"]));
  });

  it("on: a member sees the owner's named people in the photos they may list, never a face from one they may not", async () => {
    expect((await setFaces({ membersSeePeople: true }, member)).status).toBe(403);
    expect((await json<ProgressBody>(await setFaces({ membersSeePeople: true }))).settings.membersSeePeople).toBe(true);
    const seen = await people("", member);
    const theirGrandma = seen.find((person) => person.id === grandma.id)!;
    // One photo they may list; the cover cut from it, not from the private copy the owner chose.
    expect(theirGrandma).toMatchObject({ isOwn: false, name: "Grandma Zelda", photoCount: 1, cover: { photoId: photoIds.portrait } });
    // Unnamed people and people only in photos they may not list stay the owner's.
    expect(seen.filter((person) => !person.isOwn).map((person) => person.name)).toEqual(["Cousin Hand", "Grandma Zelda"]);
    expect((await json<{ person: PersonBody }>(await member.request(`/api/people/${grandma.id}`))).person).toMatchObject({ photoCount: 1, cover: { photoId: photoIds.portrait } });
    expect((await updatePerson(grandma.id, { name: "Mine now" }, member)).status).toBe(404);
    expect((await member.request(`/api/people/${grandma.id}/merge`, { body: { json: { intoPersonId: seen.find((person) => person.isOwn)!.id } } })).status).toBe(404);
    expect((await addFace(photoIds.portrait, { box: { left: 0.7, top: 0.1, width: 0.1, height: 0.1 }, personId: grandma.id }, member)).status).toBe(404);
    // The photo's faces: the named ones, no way to add one; nothing of the private copy or the demo photo.
    const faces = await json<{ faces: FaceBody[]; mayAddFaces: boolean }>(await member.request(`/api/photos/${photoIds.portrait}/faces`));
    expect(faces.mayAddFaces).toBe(false);
    expect(faces.faces.map((face) => face.personName).sort()).toEqual(["Cousin Hand", "Grandma Zelda"]);
    expect(await photoFaces(photoIds.portraitTurned, member)).toEqual([]);
    expect(await photoFaces(photoIds.demo, member)).toEqual([]);
    expect(await searchNames('person:"Grandma Zelda"', member)).toEqual(["portrait"]);
    expect(await searchNames("person:grandma", member)).toEqual(["portrait"]);
    const page = await member.request(`/people/${grandma.id}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Grandma Zelda");
    expect(html).not.toContain("person-editor");
  });

  it("visitors never see people, whatever the setting", async () => {
    expect((await admin.request(`/api/photos/${photoIds.portrait}`, { method: "PATCH", body: { json: { visibility: "public" } } })).status).toBe(200);
    const visitor = new TestClient(app.url);
    expect((await visitor.request("/api/people")).status).toBe(401);
    expect((await visitor.request(`/api/people/${grandma.id}`)).status).toBe(401);
    expect(await searchNames("person:grandma", visitor)).toEqual([]);
    expect(await searchNames("-person:grandma", visitor)).toContain("portrait");
    const facets = await json<{ people: unknown[] }>(await visitor.request("/api/search/facets?q="));
    expect(facets.people).toEqual([]);
    const signIn = await visitor.request(`/people/${grandma.id}`);
    expect(signIn.status).toBeLessThan(400);
    expect(await signIn.text()).not.toContain("Grandma Zelda");
  });

  it("off again: members are back to their own people", async () => {
    await json(await setFaces({ membersSeePeople: false }));
    expect((await people("", member)).every((person) => person.isOwn)).toBe(true);
    expect(await searchNames("person:grandma", member)).toEqual([]);
  });
});

describe("people: privacy", () => {
  it("a visitor never sees a name or a box: not on the public photo's page, the feed, oEmbed or the sitemap", async () => {
    expect((await admin.request(`/api/photos/${photoIds.portrait}`, { method: "PATCH", body: { json: { visibility: "public" } } })).status).toBe(200);
    const visitor = new TestClient(app.url);
    expect((await visitor.request(`/api/photos/${photoIds.portrait}/faces`)).status).toBe(401);
    expect((await visitor.request("/api/people")).status).toBe(401);
    const pageUrl = `${app.url}/p/${photoIds.portrait}`;
    for (const url of [`/p/${photoIds.portrait}`, "/feed.xml", "/feed.json", "/sitemap.xml", `/oembed?url=${encodeURIComponent(pageUrl)}`]) {
      const response = await visitor.request(url);
      expect(response.status, url).toBeLessThan(400);
      expect(await response.text(), url).not.toContain("Grandma Zelda");
    }
  });
});

describe("people: a user who says no after agreeing", () => {
  it("loses every face found in their photos and their descriptors; nothing of theirs is looked at again; others keep theirs", async () => {
    const descriptorsBefore = await descriptorsStored();
    // The member's one photo is the turned portrait: one face.
    const memberFaces = () => db.selectFrom("faces").select("id").where("photo_id", "=", photoIds.memberPhoto).execute();
    expect(await memberFaces()).toHaveLength(1);
    expect(await json(await answerConsent(false, member))).toMatchObject({ answer: "declined" });
    expect(await memberFaces()).toEqual([]);
    expect(await descriptorsStored()).toBe(descriptorsBefore - 1);
    expect(await people("", member)).toEqual([]);
    // A detection queued for their photo anyway runs no model and stores nothing.
    const now = new Date().toISOString();
    await db.insertInto("jobs").values({ id: crypto.randomUUID(), kind: DETECT_FACES_JOB, photo_id: photoIds.memberPhoto, priority: DETECT_PRIORITY, status: "queued", attempts: 0, created_at: now, updated_at: now }).execute();
    await waitForIdleQueue();
    expect(await memberFaces()).toEqual([]);
    expect(await db.selectFrom("photo_face_scans").select("photo_id").where("photo_id", "=", photoIds.memberPhoto).execute()).toEqual([]);
  });
});

describe("people: turned off", () => {
  it("deletes every descriptor, the queue and the unnamed people; named people stay", async () => {
    expect(await descriptorsStored()).toBeGreaterThan(0);
    const off = await json<ProgressBody>(await setFaces({ enabled: false }));
    expect(off.settings.enabled).toBe(false);
    expect(off.progress).toMatchObject({ scanned: 0, faces: 0 });
    expect(await descriptorsStored()).toBe(0);
    expect(await db.selectFrom("photo_face_scans").select("photo_id").execute()).toEqual([]);
    // Named people stay, and so do faces drawn by hand (the owner's own work, no descriptor).
    expect((await people("?hidden=include")).map((person) => [person.name, person.photoCount])).toEqual([
      ["Cousin Hand", 1],
      ["Grandma Zelda", 0],
    ]);
    expect(await people("", member)).toEqual([]);
  });

  it("off during a backfill stops it: nothing is stored afterwards", async () => {
    await json(await setFaces({ enabled: true }));
    await json(await setFaces({ enabled: false }));
    expect(await db.selectFrom("jobs").select("id").where("kind", "in", ["photo.faces", "faces.backfill"]).execute()).toEqual([]);
    await waitForIdleQueue();
    expect(await descriptorsStored()).toBe(0);
    expect(await db.selectFrom("photo_face_scans").select("photo_id").execute()).toEqual([]);
  });
});
