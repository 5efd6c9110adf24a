// Proofing over HTTP against the built app: visitors of a share link name themselves, pick and
// comment; two visitors' picks never mix and a forged, foreign or absent visitor cookie is nobody;
// the pick limit, the owner's lock and a link without picks; the owner's list, CSV (formula cells
// as text) and Lightroom list; another editor gets 404; the dashboard's "New selections"; the caps
// on visitors per link and per browser and on a link's picks (SECURITY.md 63).
import { createHmac, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { selectionsResponseSchema, visitorResponseSchema } from "@/src/shares/proofing-api.schemas";
import { MAX_PICKS_PER_SHARE, MAX_VISITORS_PER_GRANT, MAX_VISITORS_PER_SHARE } from "@/src/shares/proofing.types";
import { TEST_SECRET } from "./setup/global-setup";
import { openTestDatabase } from "./helpers/test-database";
import { signedInAdmin, signedInAs, TestClient, type TestUser } from "./helpers/test-client";

const db = openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
afterAll(() => db.destroy());

let alice: { client: TestClient; user: TestUser };
let bob: { client: TestClient; user: TestUser };
let admin: TestClient;
let run: string;

const photo = (name: string) => `${run}-${name}`;
const json = (value: unknown) => ({ body: { json: value } });

/** A grant cookie as src/shares/share-grant-cookie.ts signs it (the page that admits browsers is another part's). */
function grantCookie(shareId: string, grantVersion = 1): string {
  const key = createHmac("sha256", TEST_SECRET).update("contact-sheet share grant v1").digest();
  const payload = Buffer.from(JSON.stringify([shareId, grantVersion, randomBytes(12).toString("base64url"), Math.floor(Date.now() / 1000)])).toString("base64url");
  return `${payload}.${createHmac("sha256", key).update(payload).digest("base64url")}`;
}

async function insertPhotos(ownerId: string, names: string[], extra: { trashed?: boolean } = {}): Promise<void> {
  const now = new Date().toISOString();
  await db
    .insertInto("photos")
    .values(
      names.map((name, index) => ({
        id: photo(name), owner_id: ownerId, sha256: photo(name), status: "ready" as const, visibility: "private" as const, original_key: `originals/${photo(name)}`,
        original_name: `${name.toUpperCase()}.NEF`, original_type: "image/jpeg", original_size: 1, width: 300, height: 200, title: `Title ${name}`,
        sort_at: now, created_at: new Date(Date.UTC(2024, 0, 1) + index).toISOString(), updated_at: now, trashed_at: extra.trashed ? now : null,
      })),
    )
    .execute();
}

async function createShare(ownerId: string, photoNames: string[], options: { allowPicks?: boolean; pickLimit?: number | null } = {}): Promise<{ id: string; key: string }> {
  const id = crypto.randomUUID();
  const key = randomBytes(18).toString("base64url");
  const now = new Date().toISOString();
  await db
    .insertInto("shares")
    .values({ id, key, owner_id: ownerId, title: `Wedding ${run}`, allow_picks: options.allowPicks === false ? 0 : 1, pick_limit: options.pickLimit ?? null, expires_at: null, max_views: null, password_hash: null, album_id: null, last_visited_at: null, selection_locked_at: null, revoked_at: null, created_at: now, updated_at: now })
    .execute();
  await db.insertInto("share_photos").values(photoNames.map((name, position) => ({ share_id: id, photo_id: photo(name), position }))).execute();
  return { id, key };
}

/** A browser admitted to the share (holding its grant cookie). */
function visitorOf(share: { id: string }): TestClient {
  const client = new TestClient();
  client.cookies.set("cs_share_grant", grantCookie(share.id));
  return client;
}

async function named(share: { id: string; key: string }, name: string, email?: string): Promise<TestClient> {
  const client = visitorOf(share);
  const response = await client.request(`/s/${share.key}/api/visitor`, json({ name, ...(email ? { email } : {}) }));
  expect(response.status, await response.clone().text()).toBe(201);
  return client;
}

async function errorOf(response: Response): Promise<{ code: string; message: string }> {
  return ((await response.json()) as { error: { code: string; message: string } }).error;
}

async function picksOf(client: TestClient, key: string): Promise<string[]> {
  const answer = visitorResponseSchema.parse(await (await client.request(`/s/${key}/api/visitor`)).json());
  return (answer.visitor?.feedback ?? []).filter((each) => each.picked).map((each) => each.photoId);
}

beforeAll(async () => {
  run = `pf${Date.now().toString(36)}`;
  alice = await signedInAs("editor");
  bob = await signedInAs("editor");
  admin = await signedInAdmin();
  await insertPhotos(alice.user.id, ["a1", "a2", "a3", "a4", "outside"]);
  await insertPhotos(alice.user.id, ["gone"], { trashed: true });
}, 60_000);

describe("a proofing link's visitors", () => {
  it("names a visitor with a link-scoped cookie that stores only a hash, and answers no visitor before that", async () => {
    const share = await createShare(alice.user.id, ["a1", "a2"], { pickLimit: 20 });
    const client = visitorOf(share);
    const before = visitorResponseSchema.parse(await (await client.request(`/s/${share.key}/api/visitor`)).json());
    expect(before).toMatchObject({ visitor: null, pickLimit: 20, locked: false });
    // No name yet: nobody to pick for.
    let response = await client.request(`/s/${share.key}/api/feedback/${photo("a1")}`, { method: "PUT", ...json({ picked: true }) });
    expect(response.status).toBe(403);

    response = await client.request(`/s/${share.key}/api/visitor`, json({ name: "   ", email: "ann@example.test" }));
    expect(response.status).toBe(422);
    response = await client.request(`/s/${share.key}/api/visitor`, json({ name: "Ann", email: "not-an-address" }));
    expect(response.status).toBe(422);
    response = await client.request(`/s/${share.key}/api/visitor`, json({ name: "  Ann  ", email: "ann@example.test" }));
    expect(response.status).toBe(201);
    const setCookie = response.headers.getSetCookie().find((cookie) => cookie.startsWith("cs_share_visitor="));
    expect(setCookie).toBeDefined();
    expect(setCookie).toContain(`Path=/s/${share.key}`);
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Lax");
    const token = client.cookies.get("cs_share_visitor") ?? "";
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    const row = await db.selectFrom("share_visitors").selectAll().where("share_id", "=", share.id).executeTakeFirstOrThrow();
    expect(row.name).toBe("Ann");
    expect(row.token_hash).not.toContain(token);
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect((await client.request(`/s/${share.key}/api/visitor`, json({ name: "Ann" }))).status).toBe(201);

    // Without the link's grant, the visitor API is the gate's 401 like every share path; cross-site writes are refused.
    const stranger = new TestClient();
    stranger.cookies.set("cs_share_visitor", token);
    expect((await stranger.request(`/s/${share.key}/api/visitor`)).status).toBe(401);
    expect((await client.request(`/s/${share.key}/api/selection`, { method: "POST", origin: "https://evil.example" })).status).toBe(403);
  });

  it("keeps two visitors' picks apart; a forged, foreign or absent visitor cookie is nobody", async () => {
    const share = await createShare(alice.user.id, ["a1", "a2", "a3", "a4"]);
    const other = await createShare(alice.user.id, ["a1"]);
    const ann = await named(share, "Ann");
    const bo = await named(share, "Bo");
    for (const name of ["a1", "a2"]) expect((await ann.request(`/s/${share.key}/api/feedback/${photo(name)}`, { method: "PUT", ...json({ picked: true }) })).status).toBe(200);
    let response = await bo.request(`/s/${share.key}/api/feedback/${photo("a3")}`, { method: "PUT", ...json({ picked: true, comment: "Love it" }) });
    expect(await response.json()).toEqual({ feedback: { photoId: photo("a3"), picked: true, comment: "Love it" }, pickCount: 1, pickLimit: null });

    expect(await picksOf(ann, share.key)).toEqual([photo("a1"), photo("a2")]);
    expect(await picksOf(bo, share.key)).toEqual([photo("a3")]);
    // Bo unpicking a photo only Ann picked changes nothing of Ann's.
    await bo.request(`/s/${share.key}/api/feedback/${photo("a1")}`, { method: "PUT", ...json({ picked: false }) });
    expect(await picksOf(ann, share.key)).toEqual([photo("a1"), photo("a2")]);

    // A made-up token, Bo's token on another link, and no token: nobody, who can neither read nor write.
    const forged = visitorOf(share);
    forged.cookies.set("cs_share_visitor", randomBytes(32).toString("base64url"));
    const foreign = visitorOf(other);
    foreign.cookies.set("cs_share_visitor", bo.cookies.get("cs_share_visitor") ?? "");
    const absent = visitorOf(share);
    for (const [client, key] of [[forged, share.key], [foreign, other.key], [absent, share.key]] as const) {
      const answer = visitorResponseSchema.parse(await (await client.request(`/s/${key}/api/visitor`)).json());
      expect(answer.visitor).toBeNull();
      response = await client.request(`/s/${key}/api/feedback/${photo("a1")}`, { method: "PUT", ...json({ picked: false, comment: null }) });
      expect(response.status).toBe(403);
      expect((await client.request(`/s/${key}/api/selection`, { method: "POST" })).status).toBe(403);
    }
    expect(await picksOf(ann, share.key)).toEqual([photo("a1"), photo("a2")]);
    // A removed visitor is nobody too.
    await db.deleteFrom("share_visitors").where("share_id", "=", share.id).where("name", "=", "Bo").execute();
    expect(visitorResponseSchema.parse(await (await bo.request(`/s/${share.key}/api/visitor`)).json()).visitor).toBeNull();
  });

  it("holds the pick limit, takes only the share's photos, and refuses a link without picks", async () => {
    const share = await createShare(alice.user.id, ["a1", "a2", "a3", "gone"], { pickLimit: 2 });
    const ann = await named(share, "Ann");
    const pick = (name: string, picked = true) => ann.request(`/s/${share.key}/api/feedback/${photo(name)}`, { method: "PUT", ...json({ picked }) });
    expect((await pick("a1")).status).toBe(200);
    expect((await pick("a2")).status).toBe(200);
    let response = await pick("a3");
    expect(response.status).toBe(409);
    expect((await errorOf(response)).message).toContain("You have picked 2 of 2");
    // Picking a picked photo again, or commenting, is not one more pick.
    expect((await pick("a2")).status).toBe(200);
    expect((await ann.request(`/s/${share.key}/api/feedback/${photo("a3")}`, { method: "PUT", ...json({ comment: "Maybe this one?" }) })).status).toBe(200);
    expect((await pick("a1", false)).status).toBe(200);
    expect((await pick("a3")).status).toBe(200);
    expect(await picksOf(ann, share.key)).toEqual([photo("a2"), photo("a3")]);

    // Not in the share, trashed, unknown: 404, nothing written.
    for (const name of ["outside", "gone", "nothing"]) expect((await pick(name)).status).toBe(404);
    response = await ann.request(`/s/${share.key}/api/feedback/${photo("a1")}`, { method: "PUT", ...json({ comment: "x".repeat(2001) }) });
    expect(response.status).toBe(422);
    expect((await ann.request(`/s/${share.key}/api/feedback/${photo("a1")}`, { method: "PUT", ...json({}) })).status).toBe(422);
    expect(await db.selectFrom("share_feedback").select("photo_id").where("share_id", "=", share.id).execute()).toHaveLength(2);

    const closed = await createShare(alice.user.id, ["a1"], { allowPicks: false });
    const visitor = visitorOf(closed);
    for (const [method, path] of [["GET", "visitor"], ["POST", "visitor"], ["PUT", `feedback/${photo("a1")}`], ["POST", "selection"]] as const) {
      response = await visitor.request(`/s/${closed.key}/api/${path}`, { method, ...(method === "GET" ? {} : json(path === "visitor" ? { name: "Ann" } : path === "selection" ? undefined : { picked: true })) });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect((await errorOf(response)).message).toBe("This link does not invite picks.");
    }
  });

  it("sends a selection, shows it new on the dashboard until the owner opens it, and stops changes while locked", async () => {
    const share = await createShare(alice.user.id, ["a1", "a2"]);
    const ann = await named(share, "Ann");
    expect((await ann.request(`/s/${share.key}/api/selection`, { method: "POST" })).status).toBe(409);
    await ann.request(`/s/${share.key}/api/feedback/${photo("a1")}`, { method: "PUT", ...json({ picked: true }) });
    let response = await ann.request(`/s/${share.key}/api/selection`, { method: "POST" });
    expect(response.status).toBe(200);
    const sent = visitorResponseSchema.parse(await response.json());
    expect(sent.visitor?.sentAt).toEqual(expect.any(String));
    const log = await db.selectFrom("share_access_log").select("event").where("share_id", "=", share.id).where("event", "=", "selection_sent").execute();
    expect(log).toHaveLength(1);

    const dashboard = await (await alice.client.request("/admin")).text();
    expect(dashboard).toContain("New selections");
    expect(dashboard).toContain(`/admin/shares/${share.id}/selections`);
    // Another editor's dashboard does not list it; an admin's does.
    expect(await (await bob.client.request("/admin")).text()).not.toContain(share.id);
    expect(await (await admin.request("/admin")).text()).toContain(share.id);
    response = await alice.client.request(`/admin/shares/${share.id}/selections`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Ann");
    expect(await (await alice.client.request("/admin")).text()).not.toContain(`/admin/shares/${share.id}/selections`);
    // Sending again after a change makes it new again.
    await ann.request(`/s/${share.key}/api/feedback/${photo("a2")}`, { method: "PUT", ...json({ picked: true }) });
    expect((await ann.request(`/s/${share.key}/api/selection`, { method: "POST" })).status).toBe(200);
    expect(await (await alice.client.request("/admin")).text()).toContain(`/admin/shares/${share.id}/selections`);

    // Locked: read-only for visitors, one audit row per change.
    response = await alice.client.request(`/api/shares/${share.id}/selection-lock`, { method: "PUT" });
    expect(response.status).toBe(200);
    const { lockedAt } = (await response.json()) as { lockedAt: string };
    expect(lockedAt).toEqual(expect.any(String));
    expect(visitorResponseSchema.parse(await (await ann.request(`/s/${share.key}/api/visitor`)).json()).locked).toBe(true);
    response = await ann.request(`/s/${share.key}/api/feedback/${photo("a1")}`, { method: "PUT", ...json({ picked: false }) });
    expect(response.status).toBe(409);
    expect((await errorOf(response)).message).toContain("The selection is locked");
    expect((await ann.request(`/s/${share.key}/api/selection`, { method: "POST" })).status).toBe(409);
    expect(await (await alice.client.request(`/api/shares/${share.id}/selection-lock`, { method: "PUT" })).json()).toEqual({ lockedAt });
    expect((await alice.client.request(`/api/shares/${share.id}/selection-lock`, { method: "DELETE" })).status).toBe(200);
    expect((await ann.request(`/s/${share.key}/api/feedback/${photo("a1")}`, { method: "PUT", ...json({ picked: false }) })).status).toBe(200);
    const audit = await db.selectFrom("audit_log").select("action").where("target_id", "=", share.id).orderBy("created_at").execute();
    expect(audit.map((row) => row.action)).toEqual(["share.selection-lock", "share.selection-unlock"]);
  });
});

describe("SECURITY 63: what one link's visitors can create is capped", () => {
  /** Visitor rows written straight to the database, as if named earlier (no cookie for them). */
  async function insertVisitors(shareId: string, count: number): Promise<string[]> {
    const now = new Date().toISOString();
    const ids = Array.from({ length: count }, () => crypto.randomUUID());
    for (let start = 0; start < ids.length; start += 500) {
      const rows = ids.slice(start, start + 500).map((id) => ({
        id, share_id: shareId, token_hash: randomBytes(32).toString("hex"), name: "Earlier", email: null, visit_id: null, sent_at: null, owner_seen_at: null, created_at: now, updated_at: now,
      }));
      await db.insertInto("share_visitors").values(rows).execute();
    }
    return ids;
  }

  it("names at most MAX_VISITORS_PER_GRANT visitors from one admitted browser, even all at once; 409 with a message past it", async () => {
    const share = await createShare(alice.user.id, ["a1", "a2"]);
    const browser = visitorOf(share);
    // The probe's 150 names in 5 s, as 20 at once: exactly the cap gets through.
    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => browser.request(`/s/${share.key}/api/visitor`, json({ name: `Bot ${index}` }))));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(MAX_VISITORS_PER_GRANT);
    expect(statuses.filter((status) => status === 409)).toHaveLength(20 - MAX_VISITORS_PER_GRANT);
    const refusal = await errorOf(answers.find((answer) => answer.status === 409) as Response);
    expect(refusal.code).toBe("CONFLICT");
    expect(refusal.message).toMatch(/This browser has named 5 visitors on this link already/);
    const rows = await db.selectFrom("share_visitors").select("visit_id").where("share_id", "=", share.id).execute();
    expect(rows).toHaveLength(MAX_VISITORS_PER_GRANT);
    expect(new Set(rows.map((row) => row.visit_id)).size).toBe(1);
    // Another browser on the link is not held back by this one.
    await named(share, "Carla");
  });

  it("names at most MAX_VISITORS_PER_SHARE visitors on one link, from any number of browsers", async () => {
    const share = await createShare(alice.user.id, ["a1"]);
    await insertVisitors(share.id, MAX_VISITORS_PER_SHARE - 2);
    await named(share, "Second to last");
    await named(share, "Last");
    const refused = await visitorOf(share).request(`/s/${share.key}/api/visitor`, json({ name: "One too many" }));
    expect(refused.status).toBe(409);
    expect((await errorOf(refused)).message).toMatch(/This link has its 100 visitors already/);
    const count = await db.selectFrom("share_visitors").select((eb) => eb.fn.countAll<number | string>().as("count")).where("share_id", "=", share.id).executeTakeFirstOrThrow();
    expect(Number(count.count)).toBe(MAX_VISITORS_PER_SHARE);
  });

  it("counts every visitor's picks toward the link's bound of MAX_PICKS_PER_SHARE", async () => {
    const names = Array.from({ length: 100 }, (_, index) => `bound${index}`);
    await insertPhotos(alice.user.id, names);
    const share = await createShare(alice.user.id, names);
    const perVisitor = names.length;
    const visitors = await insertVisitors(share.id, MAX_PICKS_PER_SHARE / perVisitor);
    const now = new Date().toISOString();
    const picks = visitors.flatMap((visitorId, index) =>
      Array.from({ length: perVisitor }, (_, offset) => ({ visitor_id: visitorId, photo_id: photo(names[(index + offset) % names.length]), share_id: share.id, is_picked: 1, comment: null, updated_at: now })),
    );
    for (let start = 0; start < picks.length; start += 1000) await db.insertInto("share_feedback").values(picks.slice(start, start + 1000)).execute();

    // A new visitor, well within any pick limit of their own, finds the link's bound reached.
    const late = await named(share, "Late");
    const refused = await late.request(`/s/${share.key}/api/feedback/${photo("bound0")}`, { method: "PUT", ...json({ picked: true }) });
    expect(refused.status).toBe(409);
    expect((await errorOf(refused)).message).toMatch(/picked 5000 photos between them/);
    // A comment is no pick: still welcome.
    const comment = await late.request(`/s/${share.key}/api/feedback/${photo("bound0")}`, { method: "PUT", ...json({ comment: "Lovely light" }) });
    expect(comment.status).toBe(200);
    expect(await picksOf(late, share.key)).toEqual([]);

    // One pick given back anywhere on the link frees one place.
    await db.updateTable("share_feedback").set({ is_picked: 0 }).where("visitor_id", "=", visitors[0]).where("photo_id", "=", photo(names[0])).execute();
    const allowed = await late.request(`/s/${share.key}/api/feedback/${photo("bound0")}`, { method: "PUT", ...json({ picked: true }) });
    expect(allowed.status).toBe(200);
    const second = await late.request(`/s/${share.key}/api/feedback/${photo("bound1")}`, { method: "PUT", ...json({ picked: true }) });
    expect(second.status).toBe(409);
  });
});

describe("the owner's view of the selections", () => {
  it("lists each visitor's picks and comments and exports them as CSV and a Lightroom list", async () => {
    const share = await createShare(alice.user.id, ["a1", "a2", "a3"]);
    const ann = await named(share, "Ann", "ann@example.test");
    const bo = await named(share, "Bo, the uncle");
    await ann.request(`/s/${share.key}/api/feedback/${photo("a1")}`, { method: "PUT", ...json({ picked: true }) });
    await ann.request(`/s/${share.key}/api/feedback/${photo("a3")}`, { method: "PUT", ...json({ picked: true, comment: "Brighter, please" }) });
    await bo.request(`/s/${share.key}/api/feedback/${photo("a2")}`, { method: "PUT", ...json({ comment: "=cmd|' /C calc'!A0" }) });
    // The probe's name (SECURITY.md 61): a spreadsheet splitting at ';' must not find a formula cell.
    const mallory = await named(share, "x;=cmd|' /C calc'!A0");
    await mallory.request(`/s/${share.key}/api/feedback/${photo("a1")}`, { method: "PUT", ...json({ picked: true }) });
    await ann.request(`/s/${share.key}/api/selection`, { method: "POST" });

    const list = selectionsResponseSchema.parse(await (await alice.client.request(`/api/shares/${share.id}/selections`)).json());
    expect(list.share).toMatchObject({ id: share.id, allowPicks: true, pickLimit: null, lockedAt: null });
    const [annRow, boRow] = list.visitors;
    expect(annRow).toMatchObject({ name: "Ann", email: "ann@example.test", isNew: true });
    expect(annRow.picks.map((each) => [each.photoId, each.originalName, each.comment])).toEqual([
      [photo("a1"), "A1.NEF", null],
      [photo("a3"), "A3.NEF", "Brighter, please"],
    ]);
    expect(boRow).toMatchObject({ name: "Bo, the uncle", sentAt: null, picks: [] });
    expect(boRow.comments.map((each) => each.photoId)).toEqual([photo("a2")]);

    let response = await alice.client.request(`/api/shares/${share.id}/selections.csv`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/csv");
    const csv = await response.text();
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe("Visitor,E-mail,Photo title,Original file name,Picked,Comment,Sent at");
    expect(lines[1]).toMatch(/^Ann,ann@example\.test,Title a1,A1\.NEF,yes,,\d{4}-/);
    expect(lines[2]).toMatch(/^Ann,ann@example\.test,Title a3,A3\.NEF,yes,"Brighter, please",\d{4}-/);
    expect(lines[3]).toBe(`"Bo, the uncle",,Title a2,A2.NEF,no,"'=cmd|' /C calc'!A0",`);
    expect(lines[4]).toBe(`"x;'=cmd|' /C calc'!A0",,Title a1,A1.NEF,yes,,`);
    expect(lines).toHaveLength(6);
    // Read with ',' or ';' as the list separator, no cell starts a formula.
    expect(csv).not.toMatch(/(^|[,;\t\r\n])[ "]*[=+\-@]/);

    response = await alice.client.request(`/api/shares/${share.id}/selections.txt`);
    expect(response.headers.get("content-type")).toContain("text/plain");
    expect(await response.text()).toBe("A1, A3\n");
    expect(await (await alice.client.request(`/api/shares/${share.id}/selections.txt?visitor=${boRow.id}`)).text()).toBe("\n");
    expect((await alice.client.request(`/api/shares/${share.id}/selections.txt?visitor=nobody`)).status).toBe(404);

    // Another editor: 404 on every owner path, nothing changed; an admin may.
    for (const [method, path] of [["GET", "selections"], ["GET", "selections.csv"], ["GET", "selections.txt"], ["PUT", "selection-lock"], ["DELETE", "selection-lock"]] as const) {
      expect((await bob.client.request(`/api/shares/${share.id}/${path}`, { method })).status, `${method} ${path}`).toBe(404);
    }
    expect((await bob.client.request(`/admin/shares/${share.id}/selections`)).status).toBe(404);
    expect((await db.selectFrom("shares").select("selection_locked_at").where("id", "=", share.id).executeTakeFirstOrThrow()).selection_locked_at).toBeNull();
    expect((await admin.request(`/api/shares/${share.id}/selections`)).status).toBe(200);
    expect((await alice.client.request(`/api/shares/no-such-share/selections`)).status).toBe(404);
  });
});
