import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startTestApp, type TestApp } from "./helpers/test-app";
import { createTestUser, signedInAdmin, TestClient } from "./helpers/test-client";
import { openTestDatabase } from "./helpers/test-database";
import { TEST_SECRET } from "./setup/global-setup";

// SECURITY.md 37, 50, 51: password guessing is limited per (account, address), per address and per
// account over all addresses; the credentials are read once, as next-auth reads them.

const WRONG_PASSWORD = "wrong-password-guess";

interface Attempt {
  status: number;
  body: string;
  retryAfter: string | null;
}

async function attempt(client: TestClient, email: string, password: string): Promise<Attempt> {
  const response = await client.signIn(email, password);
  return { status: response.status, body: await response.text(), retryAfter: response.headers.get("retry-after") };
}

async function failTimes(client: TestClient, email: string, times: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let index = 0; index < times; index += 1) statuses.push((await attempt(client, email, WRONG_PASSWORD)).status);
  return statuses;
}

function unknownEmail(label: string): string {
  return `nobody-${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;
}

function expectRateLimited(answer: Attempt): void {
  expect(answer.status).toBe(429);
  expect(Number(answer.retryAfter)).toBeGreaterThan(0);
  expect((JSON.parse(answer.body) as { url: string }).url).toContain("error=RateLimited");
}

/** Posts to the credentials callback with exactly this body and Content-Type (null: none at all). */
async function postCredentials(client: TestClient, body: string | FormData, contentType: string | null): Promise<Response> {
  if (body instanceof FormData) return client.request("/api/auth/callback/credentials", { body: { multipart: body } });
  // Bytes, not a string: fetch would add "text/plain;charset=UTF-8" to a string body of its own accord.
  const bytes = new Uint8Array(new TextEncoder().encode(body));
  return client.request("/api/auth/callback/credentials", {
    body: { raw: bytes },
    headers: contentType === null ? {} : { "Content-Type": contentType },
  });
}

describe("guessing one account's password (50)", () => {
  it("slows the address that failed 5 times, and the owner signs in from another address", async () => {
    const admin = await signedInAdmin();
    const owner = await createTestUser(admin, "editor");
    const attacker = new TestClient();
    expect(await failTimes(attacker, owner.email, 5)).toEqual([401, 401, 401, 401, 401]);
    expectRateLimited(await attempt(attacker, owner.email, WRONG_PASSWORD));
    // Even the right password is refused from that address until the window passes.
    expectRateLimited(await attempt(attacker, owner.email, owner.password));
    expect(attacker.sessionToken).toBeUndefined();

    const ownerBrowser = new TestClient();
    expect((await attempt(ownerBrowser, owner.email, owner.password)).status).toBe(200);
    expect(ownerBrowser.sessionToken).toBeTruthy();
  });

  it("answers a known and an unknown account alike, failure by failure", async () => {
    const admin = await signedInAdmin();
    const known = await createTestUser(admin, "viewer");
    const unknown = unknownEmail("alike");
    const knownClient = new TestClient();
    const unknownClient = new TestClient();
    const knownAnswers: Attempt[] = [];
    const unknownAnswers: Attempt[] = [];
    for (let index = 0; index < 6; index += 1) {
      knownAnswers.push(await attempt(knownClient, known.email, WRONG_PASSWORD));
      unknownAnswers.push(await attempt(unknownClient, unknown, WRONG_PASSWORD));
    }
    expect(knownAnswers.map((answer) => answer.status)).toEqual([401, 401, 401, 401, 401, 429]);
    expect(unknownAnswers.map((answer) => answer.status)).toEqual(knownAnswers.map((answer) => answer.status));
    // The same words; only the seconds left may differ, as the two windows opened moments apart.
    const withoutSeconds = (answer: Attempt) => answer.body.replace(/\d+ seconds/, "N seconds");
    expect(unknownAnswers.map(withoutSeconds)).toEqual(knownAnswers.map(withoutSeconds));
    expect(Math.abs(Number(unknownAnswers[5].retryAfter) - Number(knownAnswers[5].retryAfter))).toBeLessThanOrEqual(2);
  });

  it("counts an e-mail typed in NFD, in capitals or with spaces as the same account", async () => {
    const admin = await signedInAdmin();
    const owner = await createTestUser(admin, "viewer");
    const attacker = new TestClient();
    const spellings = [owner.email, ` ${owner.email.toUpperCase()} `, owner.email.normalize("NFD"), owner.email, owner.email];
    for (const spelling of spellings) expect((await attempt(attacker, spelling, WRONG_PASSWORD)).status).toBe(401);
    expectRateLimited(await attempt(attacker, ` ${owner.email.toUpperCase()}`, owner.password));
  });
});

describe("e-mail addresses are normalised once, the same way everywhere", () => {
  it("signs in with the NFD spelling of an account created with an NFC address", async () => {
    const admin = await signedInAdmin();
    const nfc = `josé-${Date.now()}@example.test`.normalize("NFC");
    const created = await admin.request("/api/admin/users", {
      body: { json: { email: nfc, name: "José", role: "viewer", password: "a-long-enough-password" } },
    });
    expect(created.status).toBe(201);
    expect(((await created.json()) as { user: { email: string } }).user.email).toBe(nfc);

    const nfd = nfc.normalize("NFD");
    expect(nfd).not.toBe(nfc);
    const client = new TestClient();
    expect((await attempt(client, nfd.toUpperCase(), "a-long-enough-password")).status).toBe(200);
    expect(await client.session()).toMatchObject({ user: { email: nfc } });

    // Creating the NFD spelling again is the same address: a conflict, not a second account.
    const again = await admin.request("/api/admin/users", {
      body: { json: { email: nfd, name: "José again", role: "viewer", password: "a-long-enough-password" } },
    });
    expect(again.status).toBe(409);
  });
});

describe("credentials POSTs that next-auth and the limiter could read differently (51)", () => {
  /** A locked account (5 failures from the attacker's address) and the attacker's client with a CSRF token. */
  async function lockedAccount(): Promise<{ attacker: TestClient; email: string; password: string; csrfToken: string }> {
    const admin = await signedInAdmin();
    const victim = await createTestUser(admin, "editor");
    const attacker = new TestClient();
    await failTimes(attacker, victim.email, 5);
    expectRateLimited(await attempt(attacker, victim.email, victim.password));
    return { attacker, email: victim.email, password: victim.password, csrfToken: await attacker.getCsrfToken() };
  }

  async function expectBadRequest(response: Response, attacker: TestClient): Promise<void> {
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toContain("application/json");
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("BAD_REQUEST");
    expect(body.error.message).toBeTruthy();
    expect(response.headers.getSetCookie().join("\n")).not.toContain("next-auth.session-token=");
    expect(attacker.sessionToken).toBeUndefined();
  }

  function form(fields: Array<[string, string]>): string {
    return new URLSearchParams(fields).toString();
  }

  it("refuses a repeated field, whichever it is, with 400 before the password is checked", async () => {
    const { attacker, email, password, csrfToken } = await lockedAccount();
    const base: Array<[string, string]> = [
      ["email", email],
      ["password", password],
      ["csrfToken", csrfToken],
      ["callbackUrl", "/"],
      ["json", "true"],
    ];
    const repeated: Array<Array<[string, string]>> = [
      [["email", "decoy@example.test"], ...base],
      [...base, ["email", "decoy@example.test"]],
      [...base, ["email", email]],
      [...base, ["password", "another-password"]],
      [...base, ["csrfToken", csrfToken]],
      [...base, ["callbackUrl", "/admin"]],
      [...base, ["json", "true"]],
      [...base, ["email", ""]],
    ];
    for (const fields of repeated) {
      await expectBadRequest(await postCredentials(attacker, form(fields), "application/x-www-form-urlencoded"), attacker);
    }
    // The same body with each field once is read, and refused by the limit (so the 400s above came first).
    const single = await postCredentials(attacker, form(base), "application/x-www-form-urlencoded");
    expect(single.status).toBe(429);
  });

  it("refuses bodies next-auth would read otherwise: JSON, multipart, text, no type, odd charsets", async () => {
    const { attacker, email, password, csrfToken } = await lockedAccount();
    const fields = { email, password, csrfToken, callbackUrl: "/", json: "true" };
    const formBody = new URLSearchParams(fields).toString();
    const jsonBody = JSON.stringify(fields);
    const multipart = new FormData();
    for (const [name, value] of Object.entries(fields)) multipart.append(name, value);

    const spellings: Array<[string | FormData, string | null]> = [
      [jsonBody, "application/json"],
      [jsonBody, "application/json; charset=utf-8"],
      [jsonBody, "application/x-www-form-urlencoded; x=application/json"],
      [jsonBody, "application/x-www-form-urlencoded, application/json"],
      [jsonBody, "text/plain; application/json"],
      [formBody, "application/json; x=application/x-www-form-urlencoded"],
      [multipart, null],
      [formBody, "multipart/form-data; boundary=application/x-www-form-urlencoded"],
      [formBody, "text/plain"],
      [formBody, "text/plain; charset=application/x-www-form-urlencoded"],
      [formBody, null],
      [formBody, ""],
      [formBody, "application/x-www-form-urlencoded; charset=utf-16le"],
      [formBody, "application/x-www-form-urlencoded; charset=iso-8859-1"],
      [formBody, "application/x-www-form-urlencoded; charset=utf-8; charset=utf-16"],
      [formBody, "application/x-www-form-urlencodedx"],
    ];
    for (const [body, contentType] of spellings) {
      const response = await postCredentials(attacker, body, contentType);
      await expectBadRequest(response, attacker);
    }
  });

  it("does not count refused spellings as guesses: the owner's address still signs in", async () => {
    const admin = await signedInAdmin();
    const owner = await createTestUser(admin, "viewer");
    const client = new TestClient();
    const csrfToken = await client.getCsrfToken();
    for (let index = 0; index < 6; index += 1) {
      const body = form([
        ["email", owner.email],
        ["email", owner.email],
        ["password", WRONG_PASSWORD],
        ["csrfToken", csrfToken],
        ["json", "true"],
      ]);
      expect((await postCredentials(client, body, "application/x-www-form-urlencoded")).status).toBe(400);
    }
    const accepted = await postCredentials(
      client,
      form([
        ["email", owner.email],
        ["password", owner.password],
        ["csrfToken", csrfToken],
        ["json", "true"],
      ]),
      "application/x-www-form-urlencoded; charset=UTF-8",
    );
    expect(accepted.status).toBe(200);
    expect(client.sessionToken).toBeTruthy();
  });
});

describe("limits kept in the database, with an account-wide ceiling (a server of its own)", () => {
  const ADMIN = { email: "limits-admin@example.test", password: "limits-admin-password" };
  const CEILING = 8;
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp(inject("databaseKind"), {
      NEXTAUTH_SECRET: TEST_SECRET,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      TRUST_PROXY: "true",
      SIGNIN_MAX_FAILURES_PER_ACCOUNT_ALL_ADDRESSES: String(CEILING),
      LOG_LEVEL: "error",
    });
  });

  afterAll(async () => {
    await app?.stop();
  });

  function clientAt(address: string): TestClient {
    return new TestClient(app.url, address);
  }

  async function createUser(): Promise<{ email: string; password: string }> {
    const admin = clientAt("192.0.2.1");
    await admin.signIn(ADMIN.email, ADMIN.password);
    const user = await createTestUser(admin, "viewer");
    return { email: user.email, password: user.password };
  }

  it("keeps the count across a restart, and stores no e-mail in plain text", async () => {
    const owner = await createUser();
    expect(await failTimes(clientAt("198.51.100.1"), owner.email, 5)).toEqual([401, 401, 401, 401, 401]);
    expectRateLimited(await attempt(clientAt("198.51.100.1"), owner.email, owner.password));

    await app.server.stop();
    await app.startAgain();

    expectRateLimited(await attempt(clientAt("198.51.100.1"), owner.email, owner.password));
    expect((await attempt(clientAt("198.51.100.2"), owner.email, owner.password)).status).toBe(200);

    const db = openTestDatabase({ dataDirectory: app.dataDirectory, databaseUrl: app.databaseUrl || undefined });
    try {
      const rows = await db.selectFrom("rate_limits").selectAll().execute();
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.some((row) => row.key.includes("198.51.100.1"))).toBe(true);
      expect(rows.some((row) => row.key.includes(owner.email))).toBe(false);
    } finally {
      await db.destroy();
    }
  });

  it(`locks the account for every address once ${CEILING} failures came from anywhere, known and unknown alike`, async () => {
    const owner = await createUser();
    const unknown = unknownEmail("ceiling");
    for (const [label, email] of [
      ["known", owner.email],
      ["unknown", unknown],
    ] as const) {
      const statuses: number[] = [];
      // Two failures from each of four addresses: no (account, address) pair reaches its limit of 5.
      for (let address = 1; address <= CEILING / 2; address += 1) {
        statuses.push(...(await failTimes(clientAt(`203.0.113.${address}${label === "known" ? 0 : 1}`), email, 2)));
      }
      expect(statuses).toEqual(new Array(CEILING).fill(401));
      expectRateLimited(await attempt(clientAt(`198.51.100.9${label === "known" ? 0 : 1}`), email, label === "known" ? owner.password : WRONG_PASSWORD));
    }
    // Other accounts are not touched by it.
    const other = await createUser();
    expect((await attempt(clientAt("198.51.100.99"), other.email, other.password)).status).toBe(200);
  });
});
