import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Kysely } from "kysely";
import { purgeExpiredAuditEntries } from "@/src/audit-admin/audit.service";
import type { Database } from "@/src/db/database";
import { uploadCorpusFile } from "./helpers/photos";
import { createTestUser, signedInAdmin, signedInAs, TestClient } from "./helpers/test-client";
import { openTestDatabase } from "./helpers/test-database";

// The audit log: sign-ins with address and user agent, filters and keyset paging over the API,
// the CSV export (escaped, formula-guarded), the retention purge, and SECURITY.md 46.

interface Entry {
  id: string;
  createdAt: string;
  actor: { id: string; name: string | null; email: string | null } | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  address: string | null;
  userAgent: string | null;
  details: Record<string, unknown>;
}

let db: Kysely<Database>;
let admin: TestClient;

beforeAll(async () => {
  db = openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
  admin = await signedInAdmin();
});
afterAll(() => db.destroy());

function rowsFrom(address: string) {
  return db.selectFrom("audit_log").selectAll().where("address", "=", address).orderBy("created_at").orderBy("id").execute();
}

async function readPage(client: TestClient, query: string): Promise<{ entries: Entry[]; nextCursor: string | null }> {
  const response = await client.request(`/api/admin/audit?${query}`);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as { entries: Entry[]; nextCursor: string | null };
}

/** Inserts audit rows as a service would, with chosen times, for the filter and purge tests. */
async function insertRows(rows: Array<{ action: string; createdAt: string; actorId?: string | null; targetId?: string | null; address?: string; userAgent?: string; details?: unknown }>): Promise<string[]> {
  const ids = rows.map(() => crypto.randomUUID());
  await db
    .insertInto("audit_log")
    .values(
      rows.map((row, index) => ({
        id: ids[index],
        actor_id: row.actorId ?? null,
        action: row.action,
        target_id: row.targetId ?? null,
        target_type: row.targetId ? "test" : null,
        details: JSON.stringify(row.details ?? {}),
        address: row.address ?? null,
        user_agent: row.userAgent ?? null,
        created_at: row.createdAt,
      })),
    )
    .execute();
  return ids;
}

function uniqueAction(label: string): string {
  return `test.${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
}

describe("sign-ins", () => {
  it("records success, failure and rate-limited attempts with address and user agent, never the password", async () => {
    const user = await createTestUser(admin, "editor");
    const client = new TestClient();
    const userAgent = `audit-test-browser/${Date.now()}`;
    const wrongPassword = `wrong-${Date.now()}-secret`;
    // next-auth's CSRF token rides on a cookie: fetch it first, then send it with each form.
    const csrf = await client.getCsrfToken();
    const signInWithCsrf = (password: string) =>
      client.request("/api/auth/callback/credentials", {
        body: { form: { email: user.email, password, csrfToken: csrf, json: "true", callbackUrl: client.baseUrl } },
        headers: { "User-Agent": userAgent },
      });

    expect((await signInWithCsrf(user.password)).status).toBe(200);
    expect(client.sessionToken).toBeDefined();
    client.cookies.delete("next-auth.session-token");
    const statuses: number[] = [];
    for (let index = 0; index < 6; index += 1) statuses.push((await signInWithCsrf(wrongPassword)).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses[5]).toBe(429);

    const rows = await rowsFrom(client.address);
    expect(rows.map((row) => row.action)).toEqual([
      "auth.sign-in",
      ...Array<string>(5).fill("auth.sign-in-failure"),
      "auth.sign-in-rate-limited",
    ]);
    for (const row of rows) {
      expect(row.user_agent).toBe(userAgent);
      expect(row.details).not.toContain(wrongPassword);
      expect(row.details).not.toContain(user.password);
    }
    expect(rows[0]).toMatchObject({ actor_id: user.id, target_id: user.id, target_type: "user" });
    expect(JSON.parse(rows[1].details)).toEqual({ after: { method: "password", email: user.email } });
    expect(rows[1].actor_id).toBeNull();
    expect(JSON.parse(rows[6].details).after).toMatchObject({ email: user.email, count: 1 });
  });

  it("counts 200 refused sign-ins in one row per window, the count shown to the admin (SECURITY.md 64)", async () => {
    const startedAt = new Date(Date.now() - 1000).toISOString();
    const client = new TestClient();
    const email = `guessed-${Date.now()}@example.test`;
    const statuses: number[] = [];
    for (let index = 0; index < 5; index += 1) statuses.push((await client.signIn(email, "wrong")).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    // In bursts of 10 at once: tallies written out of order must still end at the true count.
    for (let burst = 0; burst < 20; burst += 1) {
      const answers = await Promise.all(Array.from({ length: 10 }, () => client.signIn(email, "wrong")));
      expect(answers.map((answer) => answer.status)).toEqual(Array<number>(10).fill(429));
    }
    const rows = await rowsFrom(client.address);
    expect(rows.map((row) => row.action)).toEqual([...Array<string>(5).fill("auth.sign-in-failure"), "auth.sign-in-rate-limited"]);
    expect(JSON.parse(rows[5].details)).toEqual({ after: { count: 200, email, windowEndsAt: expect.any(String) } });

    const { entries } = await readPage(admin, new URLSearchParams({ action: "auth.sign-in-rate-limited", from: startedAt }).toString());
    const tally = entries.find((entry) => entry.address === client.address);
    expect(tally?.details).toMatchObject({ after: { count: 200, email } });
  });

  it("bounds the rows of one address cycling through e-mails: 10 of their own, the rest in one (SECURITY.md 64)", async () => {
    const client = new TestClient();
    const run = Date.now();
    const emails = (label: string, count: number) => Array.from({ length: count }, (_, index) => `cycle-${label}-${index}-${run}@example.test`);
    // The address's own limit (20 failures a window) is reached first; then every new e-mail is refused.
    for (const email of emails("fail", 20)) expect((await client.signIn(email, "wrong")).status).toBe(401);
    for (const email of emails("refused", 30)) expect((await client.signIn(email, "wrong")).status).toBe(429);
    const tallies = (await rowsFrom(client.address))
      .filter((row) => row.action === "auth.sign-in-rate-limited")
      .map((row) => (JSON.parse(row.details) as { after: { count: number; email?: string; accounts?: string } }).after);
    expect(tallies).toHaveLength(11);
    expect(tallies.reduce((sum, tally) => sum + tally.count, 0)).toBe(30);
    expect(tallies.filter((tally) => tally.accounts !== undefined)).toEqual([{ count: 20, accounts: "beyond the first 10", windowEndsAt: expect.any(String) }]);
  });

  it("stores SQL and script in the user agent and forwarded address as data, shown escaped (SECURITY.md 46)", async () => {
    const hostileAddress = `1.2.3.4' OR 1=1; DROP TABLE users; --${Date.now()}`.slice(0, 60);
    const hostileAgent = `<script>alert("ua")</script>'); DELETE FROM audit_log; --`;
    const client = new TestClient(undefined, hostileAddress);
    const response = await client.request("/api/auth/callback/credentials", {
      body: { form: { email: "nobody-46@example.test", password: "x", csrfToken: await client.getCsrfToken(), json: "true" } },
      headers: { "User-Agent": hostileAgent },
    });
    expect(response.status).toBe(401);
    const rows = await rowsFrom(hostileAddress);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: "auth.sign-in-failure", address: hostileAddress, user_agent: hostileAgent });
    expect(await db.selectFrom("users").select("id").limit(1).execute()).toHaveLength(1);

    const page = await admin.request(`/admin/audit?action=auth.sign-in-failure`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toContain(`<script>alert("ua")</script>`);
    expect(html).toContain("&lt;script&gt;alert(");
  });
});

describe("the CSV of a failed sign-in's user agent (SECURITY.md 61)", () => {
  it("keeps a formula after ';' from being a cell of its own in a ';' spreadsheet", async () => {
    const client = new TestClient();
    const response = await client.request("/api/auth/callback/credentials", {
      body: { form: { email: "nobody-61@example.test", password: "x", csrfToken: await client.getCsrfToken(), json: "true" } },
      headers: { "User-Agent": "x;=cmd|' /C calc'!A0" },
    });
    expect(response.status).toBe(401);
    const from = new Date(Date.now() - 60_000).toISOString();
    const csv = await (await admin.request(`/api/admin/audit.csv?action=auth.sign-in-failure&from=${encodeURIComponent(from)}`)).text();
    const line = csv.split("\r\n").find((each) => each.includes(`,${client.address},`));
    expect(line).toContain(`,"x;'=cmd|' /C calc'!A0",`);
    // Read with ',' or ';' as the list separator, no cell starts a formula.
    expect(csv).not.toMatch(/(^|[,;\t\r\n])[ "]*[=+\-@]/);
  });
});

describe("filters and keyset paging", () => {
  it("returns every matching row once, newest first, across pages (ties on the time included)", async () => {
    const action = uniqueAction("paging");
    const base = Date.parse("2026-03-01T12:00:00.000Z");
    // 11 rows, some sharing a time, so the id decides their order.
    const rows = Array.from({ length: 11 }, (_, index) => ({ action, createdAt: new Date(base + Math.floor(index / 3) * 1000).toISOString() }));
    const ids = await insertRows(rows);
    const seen: Entry[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = new URLSearchParams({ action, limit: "4", ...(cursor ? { cursor } : {}) }).toString();
      const page = await readPage(admin, query);
      seen.push(...page.entries);
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen.map((entry) => entry.id).sort()).toEqual([...ids].sort());
    const keys = seen.map((entry) => `${entry.createdAt}|${entry.id}`);
    expect(keys).toEqual([...keys].sort().reverse());
  });

  it("filters by actor, target, and dates (a `to` day is included whole)", async () => {
    const action = uniqueAction("filters");
    const target = `target-${Date.now()}`;
    const { user } = await signedInAs("viewer");
    const [onFirst, onSecond, byUser, onThird] = await insertRows([
      { action, createdAt: "2026-04-01T08:00:00.000Z", targetId: target },
      { action, createdAt: "2026-04-02T23:59:59.000Z" },
      { action, createdAt: "2026-04-02T10:00:00.000Z", actorId: user.id },
      { action, createdAt: "2026-04-03T00:00:00.000Z" },
    ]);
    const ids = async (query: Record<string, string>) =>
      (await readPage(admin, new URLSearchParams({ action, ...query }).toString())).entries.map((entry) => entry.id);
    expect(await ids({ target })).toEqual([onFirst]);
    expect(await ids({ actor: user.id })).toEqual([byUser]);
    expect(await ids({ from: "2026-04-02", to: "2026-04-02" })).toEqual([onSecond, byUser]);
    expect(await ids({ from: "2026-04-02" })).toEqual([onThird, onSecond, byUser]);
    expect(await ids({ to: "2026-04-01" })).toEqual([onFirst]);
    const withActor = (await readPage(admin, new URLSearchParams({ action, actor: user.id }).toString())).entries[0];
    expect(withActor.actor).toMatchObject({ id: user.id, email: user.email });
  });

  it("refuses bad filters and cursors with 422", async () => {
    for (const query of ["actor=not-a-uuid", "from=yesterday", "limit=0", "limit=1000", "cursor=%%%", "cursor=bm90LWpzb24"]) {
      expect((await admin.request(`/api/admin/audit?${query}`)).status, query).toBe(422);
    }
  });

  it("is for admins only: 403 for editors, 401 for nobody, on the list and the CSV alike", async () => {
    const { client: editor } = await signedInAs("editor");
    for (const path of ["/api/admin/audit", "/api/admin/audit.csv"]) {
      expect((await editor.request(path)).status, path).toBe(403);
      expect((await new TestClient().request(path)).status, path).toBe(401);
    }
    expect((await editor.request("/admin/audit")).status).toBe(403);
  });
});

describe("CSV export", () => {
  it("streams the filtered rows with escaped cells and formula-looking cells made text", async () => {
    const action = uniqueAction("csv");
    await insertRows([
      { action, createdAt: "2026-05-01T10:00:00.000Z", address: "=HYPERLINK(\"http://evil\")", userAgent: "+cmd|' /C calc'!A0", details: { before: { title: "@SUM(1)" }, after: { title: 'say "hi", then\nleave' } } },
      { action, createdAt: "2026-05-01T09:00:00.000Z", address: "-1+2", userAgent: "plain agent" },
    ]);
    const response = await admin.request(`/api/admin/audit.csv?action=${encodeURIComponent(action)}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/);
    const text = await response.text();
    const lines = text.split("\r\n");
    expect(lines[0]).toBe("time,actor_id,actor_email,action,target_type,target_id,address,user_agent,before,after");
    expect(lines[1]).toBe(
      `2026-05-01T10:00:00.000Z,,,${action},,,"'=HYPERLINK(""http://evil"")","'+cmd|' /C calc'!A0","{""title"":""@SUM(1)""}","{""title"":""say \\""hi\\"", then\\nleave""}"`,
    );
    expect(lines[2]).toBe(`2026-05-01T09:00:00.000Z,,,${action},,,"'-1+2",plain agent,,`);
    expect(lines[3]).toBe("");
    expect(lines).toHaveLength(4);
  });
});

describe("photos", () => {
  it("audits an upload, an edit (only the changed fields, before and after) and a move to the trash", async () => {
    const { client: editor, user } = await signedInAs("editor");
    const uploaded = await uploadCorpusFile(editor, "exif-samples/jpg/Olympus_C8080WZ.jpg");
    const patch = await editor.request(`/api/photos/${uploaded.id}`, { method: "PATCH", body: { json: { title: "Harbour", visibility: "public", altText: "" } } });
    expect(patch.status, await patch.clone().text()).toBe(200);
    expect((await editor.request(`/api/photos/${uploaded.id}`, { method: "DELETE" })).status).toBe(204);

    const { entries } = await readPage(admin, new URLSearchParams({ target: uploaded.id }).toString());
    expect(entries.map((entry) => entry.action)).toEqual(["photo.trash", "photo.update", "photo.upload"]);
    for (const entry of entries) expect(entry).toMatchObject({ actor: { id: user.id }, targetType: "photo", address: editor.address });
    // altText was sent as it already was: not a change.
    expect(entries[1].details).toMatchObject({ before: { visibility: "private" }, after: { title: "Harbour", visibility: "public" } });
    expect(Object.keys(entries[1].details.after as object).sort()).toEqual(["title", "visibility"]);
    expect(entries[2].details).toMatchObject({ after: { name: "Olympus_C8080WZ.jpg", visibility: "private" } });
    expect(entries[0].details).toMatchObject({ photoIds: [uploaded.id], before: { trashedAt: null }, after: { trashedAt: expect.any(String) } });
  });
});

describe("retention", () => {
  it("purges rows older than the retention setting and records that it did", async () => {
    const action = uniqueAction("retention");
    const now = new Date();
    const day = 24 * 60 * 60 * 1000;
    const [old, recent] = await insertRows([
      { action, createdAt: new Date(now.getTime() - 400 * day).toISOString() },
      { action, createdAt: new Date(now.getTime() - 10 * day).toISOString() },
    ]);
    const deleted = await purgeExpiredAuditEntries(db, now);
    expect(deleted).toBeGreaterThanOrEqual(1);
    const left = await db.selectFrom("audit_log").select("id").where("action", "=", action).execute();
    expect(left.map((row) => row.id)).toEqual([recent]);
    expect(left.map((row) => row.id)).not.toContain(old);
    const purge = await db.selectFrom("audit_log").select("details").where("action", "=", "audit.purge").orderBy("created_at", "desc").executeTakeFirstOrThrow();
    expect(JSON.parse(purge.details).after).toMatchObject({ retentionDays: 365 });
  });
});
