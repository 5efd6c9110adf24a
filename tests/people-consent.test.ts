// People's per-user consent (issue 32: "a site setting (off by default) and per-user consent text").
// The services on a freshly migrated database of their own (rows written directly, detection's
// result handed to storeDetectedFaces as the job would: no model runs), then the route through the
// built app. What the models find once a user agrees is tests/people.test.ts's.
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ANONYMOUS_VIEWER, type SessionUser, toViewer } from "@/src/access/viewer";
import type { Database, FaceSource } from "@/src/db/database";
import { FACE_CONSENT_LATER_COOKIE } from "@/src/faces/face-consent-later";
import { answerFaceConsent, getFaceConsent, shouldAskFaceConsent } from "@/src/faces/face-consent.service";
import { DETECT_FACES_JOB, DETECT_PRIORITY, FACES_BACKFILL_JOB } from "@/src/faces/face-job-kinds";
import { consentTextVersion, DEFAULT_CONSENT_TEXT, readFaceSettings, writeFaceSettings } from "@/src/faces/face-settings";
import { updateFaceSettings } from "@/src/faces/face-settings.service";
import { storeDetectedFaces } from "@/src/faces/face-storing";
import { findUnscannedPhotoIds } from "@/src/faces/faces.repository";
import { addManualFace } from "@/src/faces/people.service";
import { insertPhotoRows, insertUsers } from "./helpers/direct-rows";
import { openFreshDatabase, openTestDatabase } from "./helpers/test-database";
import { createTestUser, signedInAdmin, TestClient } from "./helpers/test-client";

const ada: SessionUser = { id: "fc-ada", email: "fc-ada@example.test", name: "Ada", role: "editor" };
const bo: SessionUser = { id: "fc-bo", email: "fc-bo@example.test", name: "Bo", role: "editor" };
const cy: SessionUser = { id: "fc-cy", email: "fc-cy@example.test", name: "Cy", role: "admin" };
/** The default words' version: what everyone agrees to until the admin writes their own. */
const DEFAULT_VERSION = consentTextVersion(DEFAULT_CONSENT_TEXT);

/** What detection would hand over for one face in `photoId` (a 100×100 look, the face in its middle). */
function detected(photoId: string, ownerId: string, value: number) {
  const descriptor = new Float32Array(128);
  descriptor[0] = value;
  return { photoId, ownerId, size: { width: 100, height: 100 }, isCapped: false, faces: [{ box: { left: 40, top: 20, width: 20, height: 30 }, score: 0.9, descriptor }] };
}

describe("consent (services, on a database of their own)", () => {
  let db: Kysely<Database>;
  let remove: () => Promise<void>;
  const facesOf = (ownerId: string, source: FaceSource = "detected") =>
    db
      .selectFrom("faces")
      .innerJoin("photos", "photos.id", "faces.photo_id")
      .select(["faces.id", "faces.descriptor"])
      .where("photos.owner_id", "=", ownerId)
      .where("faces.source", "=", source)
      .execute();
  const scansOf = (ownerId: string) => db.selectFrom("photo_face_scans").innerJoin("photos", "photos.id", "photo_face_scans.photo_id").select("photo_id").where("photos.owner_id", "=", ownerId).execute();
  const queued = (kind: string) => db.selectFrom("jobs").select(["photo_id"]).where("kind", "=", kind).execute();

  beforeAll(async () => {
    ({ db, remove } = await openFreshDatabase(inject("databaseKind")));
    // Users who exist when people is turned on: nobody has been asked yet.
    await insertUsers(db, [ada, bo, cy]);
    await insertPhotoRows(db, ["fa1", "fa2", "fb1"].map((id, index) => ({ id, owner_id: id.startsWith("fa") ? ada.id : bo.id, sort_at: new Date(Date.UTC(2024, 0, 10 - index)).toISOString() })));
    await writeFaceSettings(db, { enabled: true });
  });
  afterAll(() => remove());

  it("asks everyone first: before a user agrees nothing of theirs is queued, looked at or stored", async () => {
    expect(await getFaceConsent(db, toViewer(ada))).toEqual({ enabled: true, text: DEFAULT_CONSENT_TEXT, textVersion: DEFAULT_VERSION, answer: null, textChanged: false });
    expect(await findUnscannedPhotoIds(db, DETECT_FACES_JOB, 100, DEFAULT_VERSION)).toEqual([]);
    // A detection that ran anyway (queued before the rule) stores nothing, not even "looked at".
    expect(await storeDetectedFaces(db, detected("fa1", ada.id, 0.1))).toBe(0);
    expect(await facesOf(ada.id)).toEqual([]);
    expect(await scansOf(ada.id)).toEqual([]);
    await expect(answerFaceConsent(db, ANONYMOUS_VIEWER, true)).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
  });

  it("agreeing queues one backfill, which reaches that user's photos only", async () => {
    expect(await answerFaceConsent(db, toViewer(ada), true)).toMatchObject({ enabled: true, answer: "agreed" });
    await answerFaceConsent(db, toViewer(ada), true);
    expect(await queued(FACES_BACKFILL_JOB)).toHaveLength(1);
    expect((await findUnscannedPhotoIds(db, DETECT_FACES_JOB, 100, DEFAULT_VERSION)).sort()).toEqual(["fa1", "fa2"]);
    expect(await storeDetectedFaces(db, detected("fa1", ada.id, 0.1))).toBe(1);
    expect(await storeDetectedFaces(db, detected("fb1", bo.id, 0.1))).toBe(0);
  });

  it("saying no deletes what detection found in their photos and what is queued; faces drawn by hand, named people and others' faces stay", async () => {
    await answerFaceConsent(db, toViewer(bo), true);
    expect(await storeDetectedFaces(db, detected("fb1", bo.id, 0.2))).toBe(1);
    const hand = await addManualFace(db, toViewer(ada), "fa2", { box: { left: 0.1, top: 0.1, width: 0.2, height: 0.2 }, name: "Drawn Dora" });
    const now = new Date().toISOString();
    await db.insertInto("jobs").values({ id: crypto.randomUUID(), kind: DETECT_FACES_JOB, photo_id: "fa2", priority: DETECT_PRIORITY, status: "queued", attempts: 0, created_at: now, updated_at: now }).execute();
    expect(await answerFaceConsent(db, toViewer(ada), false)).toMatchObject({ answer: "declined" });
    expect(await facesOf(ada.id)).toEqual([]);
    expect(await scansOf(ada.id)).toEqual([]);
    expect((await queued(DETECT_FACES_JOB)).map((job) => job.photo_id)).not.toContain("fa2");
    // Ada's only detected person had no name: gone, centroid and all.
    const adaPeople = await db.selectFrom("people").leftJoin("person_centroids", "person_centroids.person_id", "people.id").select(["people.name", "person_centroids.person_id as centroid"]).where("people.owner_id", "=", ada.id).execute();
    expect(adaPeople).toEqual([{ name: "Drawn Dora", centroid: null }]);
    expect((await facesOf(ada.id, "manual")).map((face) => face.id)).toEqual([hand.id]);
    expect(await facesOf(bo.id)).toHaveLength(1);
    expect(await findUnscannedPhotoIds(db, DETECT_FACES_JOB, 100, DEFAULT_VERSION)).toEqual([]);
    expect(await storeDetectedFaces(db, detected("fa1", ada.id, 0.1))).toBe(0);
    const audit = await db.selectFrom("audit_log").select(["actor_id", "target_id", "details"]).where("action", "=", "faces.consent").where("actor_id", "=", ada.id).orderBy("created_at").execute();
    expect(audit.at(-1)).toMatchObject({ actor_id: ada.id, target_id: ada.id });
    expect(JSON.parse(String(audit.at(-1)?.details))).toMatchObject({ before: { answer: "agreed" }, after: { answer: "declined" }, deletedFaces: 1 });
  });

  it("the site's off switch wins: off, agreeing queues nothing", async () => {
    await db.deleteFrom("jobs").execute();
    await writeFaceSettings(db, { enabled: false });
    expect(await answerFaceConsent(db, toViewer(ada), true)).toEqual({ enabled: false, text: DEFAULT_CONSENT_TEXT, textVersion: DEFAULT_VERSION, answer: "agreed", textChanged: false });
    expect(await queued(FACES_BACKFILL_JOB)).toEqual([]);
    expect(await storeDetectedFaces(db, detected("fa1", ada.id, 0.1))).toBe(0);
  });

  it("asks where photos arrive only those who have not answered, while people is on, unless put off for these words", async () => {
    // Off (left so by the test above): nobody is asked, answered or not.
    expect(await shouldAskFaceConsent(db, toViewer(cy))).toBeNull();
    await writeFaceSettings(db, { enabled: true });
    expect(await shouldAskFaceConsent(db, toViewer(cy))).toMatchObject({ answer: null, textChanged: false, textVersion: DEFAULT_VERSION });
    expect(await shouldAskFaceConsent(db, toViewer(cy), DEFAULT_VERSION)).toBeNull();
    expect(await shouldAskFaceConsent(db, toViewer(cy), "0".repeat(64))).not.toBeNull();
    expect(await shouldAskFaceConsent(db, ANONYMOUS_VIEWER)).toBeNull();
    // Answered either way: quiet.
    expect(await shouldAskFaceConsent(db, toViewer(ada))).toBeNull();
    await answerFaceConsent(db, toViewer(cy), false);
    expect(await shouldAskFaceConsent(db, toViewer(cy))).toBeNull();
  });

  it("a changed consent text asks again: an earlier yes no longer counts, nothing more is looked at, what was found stays until a no", async () => {
    // Left by the tests above: people on; Ada agreed to the default words, nothing of hers found;
    // Bo agreed to them and has one face found (fb1); Cy said no.
    await insertPhotoRows(db, [{ id: "fb2", owner_id: bo.id, sort_at: new Date(Date.UTC(2024, 0, 1)).toISOString() }]);
    await db.deleteFrom("jobs").execute();
    expect(await findUnscannedPhotoIds(db, DETECT_FACES_JOB, 100, DEFAULT_VERSION)).toContain("fb2");
    await updateFaceSettings(db, cy, { consentText: "  New words: we look for faces.  " });
    const asked = await getFaceConsent(db, toViewer(bo));
    expect(asked).toMatchObject({ enabled: true, text: "New words: we look for faces.", answer: null, textChanged: true });
    expect(asked.textVersion).toBe(consentTextVersion((await readFaceSettings(db)).consentText));
    expect(asked.textVersion).not.toBe(DEFAULT_VERSION);
    // Nothing more of theirs is queued, looked at or stored; what was found stays.
    expect(await findUnscannedPhotoIds(db, DETECT_FACES_JOB, 100, asked.textVersion)).toEqual([]);
    expect(await storeDetectedFaces(db, detected("fb2", bo.id, 0.3))).toBe(0);
    expect(await facesOf(bo.id)).toHaveLength(1);
    expect(await shouldAskFaceConsent(db, toViewer(bo))).toMatchObject({ textChanged: true });
    // A no stays a no: Cy is not asked again by new words.
    expect(await getFaceConsent(db, toViewer(cy))).toMatchObject({ answer: "declined", textChanged: false });
    expect(await shouldAskFaceConsent(db, toViewer(cy))).toBeNull();
    // An answer sent with the words read before the change is refused, not counted for the new ones.
    await expect(answerFaceConsent(db, toViewer(bo), true, DEFAULT_VERSION)).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await getFaceConsent(db, toViewer(bo))).toMatchObject({ answer: null, textChanged: true });
    // Agreeing to the new words counts again: queued, looked at, stored.
    expect(await answerFaceConsent(db, toViewer(bo), true, asked.textVersion)).toMatchObject({ answer: "agreed", textChanged: false });
    expect(await queued(FACES_BACKFILL_JOB)).toHaveLength(1);
    expect(await findUnscannedPhotoIds(db, DETECT_FACES_JOB, 100, asked.textVersion)).toEqual(["fb2"]);
    expect(await storeDetectedFaces(db, detected("fb2", bo.id, 0.3))).toBe(1);
    expect(await shouldAskFaceConsent(db, toViewer(bo))).toBeNull();
    // Ada, asked again too, says no: what was found goes, as for any no.
    expect(await getFaceConsent(db, toViewer(ada))).toMatchObject({ answer: null, textChanged: true });
    expect(await answerFaceConsent(db, toViewer(ada), false)).toMatchObject({ answer: "declined", textChanged: false });
    // The very words agreed to before, put back: an earlier yes to them counts again (the words, not a counter).
    await updateFaceSettings(db, cy, { consentText: "" });
    expect(await getFaceConsent(db, toViewer(bo))).toMatchObject({ answer: null, textChanged: true });
    await answerFaceConsent(db, toViewer(bo), true);
    await updateFaceSettings(db, cy, { consentText: "Other words." });
    await updateFaceSettings(db, cy, { consentText: "" });
    expect(await getFaceConsent(db, toViewer(bo))).toMatchObject({ answer: "agreed", textChanged: false });
  });
});

describe("consent: the route (the built app)", () => {
  it("answers for the caller only: a visitor is 401, a forged cross-site PUT 403, another user's id or a bad body 422", async () => {
    const shared = openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
    try {
      const admin = await signedInAdmin();
      const user = await createTestUser(admin, "editor");
      const client = new TestClient();
      await client.signIn(user.email, user.password);
      const put = (json: unknown, options: { origin?: string } = {}) => client.request("/api/faces/consent", { method: "PUT", body: { json }, ...options });
      const before = await client.request("/api/faces/consent");
      expect(before.status).toBe(200);
      const asked = (await before.json()) as { answer: null; textVersion: string };
      expect(asked).toMatchObject({ answer: null });
      // Asked where photos arrive while people is on (written directly: turning it on through the
      // API would queue a backfill of the shared site's photos), unless put off for these words.
      const wasEnabled = (await readFaceSettings(shared)).enabled;
      await writeFaceSettings(shared, { enabled: true });
      try {
        // The library here, the upload page in e2e/people.spec.ts; who is asked at all is the services' test above.
        const notice = 'data-testid="face-consent-notice"';
        expect(await (await client.request("/admin/photos")).text()).toContain(notice);
        client.cookies.set(FACE_CONSENT_LATER_COOKIE, asked.textVersion);
        const putOff = await client.request("/admin/upload");
        expect(putOff.status).toBe(200);
        expect(await putOff.text()).not.toContain(notice);
        client.cookies.delete(FACE_CONSENT_LATER_COOKIE);
      } finally {
        await writeFaceSettings(shared, { enabled: wasEnabled });
      }
      expect((await new TestClient().request("/api/faces/consent")).status).toBe(401);
      expect((await new TestClient().request("/api/faces/consent", { method: "PUT", body: { json: { agreed: true } } })).status).toBe(401);
      expect((await put({ agreed: true }, { origin: "https://evil.example" })).status).toBe(403);
      // No route names a user: a body naming one is refused whole; words read before a change are a 409.
      expect((await put({ agreed: true, userId: "another-user" })).status).toBe(422);
      expect((await put({ agreed: true, textVersion: "not-a-version" })).status).toBe(422);
      expect((await put({ agreed: true, textVersion: "0".repeat(64) })).status).toBe(409);
      expect((await put({ agreed: "yes" })).status).toBe(422);
      expect((await put({})).status).toBe(422);
      expect(await shared.selectFrom("face_consents").select("user_id").where("user_id", "=", user.id).execute()).toEqual([]);
      const answered = await put({ agreed: false });
      expect(answered.status).toBe(200);
      expect(await answered.json()).toMatchObject({ answer: "declined" });
      expect(await shared.selectFrom("face_consents").select(["user_id", "agreed"]).where("user_id", "in", [user.id, "another-user"]).execute()).toEqual([{ user_id: user.id, agreed: 0 }]);
      // The admin's words: 2,000 characters at most, control characters gone.
      const setText = (consentText: string) => admin.request("/api/admin/faces", { method: "PATCH", body: { json: { consentText } } });
      expect((await setText("x".repeat(2001))).status).toBe(422);
      expect((await setText("May we look\u0007 for faces?\nSay no any time.")).status).toBe(200);
      expect(await (await client.request("/api/faces/consent")).json()).toMatchObject({ text: "May we look for faces?\nSay no any time." });
      expect((await setText("")).status).toBe(200);
    } finally {
      await shared.destroy();
    }
  });
});
