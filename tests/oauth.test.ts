import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DEFAULT_SIGN_IN_MESSAGE, describeSignInError } from "@/src/auth/sign-in-messages";
import type { Database } from "@/src/db/database";
import { type FakeOidcProfile, type FakeOidcProvider, startFakeOidcProvider } from "./helpers/fake-oidc-provider";
import type { RunningServer } from "./helpers/server-process";
import { startTestApp } from "./helpers/test-app";
import { createTestUser, TestClient, type TestUser } from "./helpers/test-client";
import { openTestDatabase } from "./helpers/test-database";
import { TEST_SECRET } from "./setup/global-setup";

// OAuth / OpenID Connect sign-in, end to end over HTTP: the built app (its own servers, its own
// fresh databases) against a real, local OpenID Connect provider, driven the way a browser is.

const OIDC_NAME = "Acme Single Sign-On";
const CLIENT_ID = "contact-sheet-test";
const CLIENT_SECRET = "fake-oidc-client-secret-0123456789";
const SESSION_COOKIE = "next-auth.session-token";
const OAUTH_ADMIN = { email: "oauth-admin@example.test", password: "oauth-admin-password-1", name: "Olga Admin" };

interface App {
  server: RunningServer;
  url: string;
  db: Kysely<Database>;
  stop(): Promise<void>;
}

/** Starts the built app on a fresh database (PostgreSQL when this run is on PostgreSQL). */
async function startApp(provider: FakeOidcProvider, extraEnv: Record<string, string>): Promise<App> {
  const app = await startTestApp(inject("databaseKind"), {
    NEXTAUTH_SECRET: TEST_SECRET,
    ADMIN_EMAIL: OAUTH_ADMIN.email,
    ADMIN_PASSWORD: OAUTH_ADMIN.password,
    ADMIN_NAME: OAUTH_ADMIN.name,
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: provider.clientId,
    OIDC_CLIENT_SECRET: provider.clientSecret,
    TRUST_PROXY: "true",
    ...extraEnv,
  });
  const db = openTestDatabase({ dataDirectory: app.dataDirectory, databaseUrl: app.databaseUrl || undefined });
  const stop = async () => {
    await db.destroy();
    await app.stop();
  };
  return { server: app.server, url: app.url, db, stop };
}

async function signedInAdmin(app: App): Promise<TestClient> {
  const admin = new TestClient(app.url);
  const response = await admin.signIn(OAUTH_ADMIN.email, OAUTH_ADMIN.password);
  if (!admin.sessionToken) throw new Error(`Admin sign-in failed: ${response.status} ${await response.text()}`);
  return admin;
}

let uniqueCounter = 0;
function unique(prefix: string): string {
  uniqueCounter += 1;
  return `${prefix}-${Date.now()}-${process.pid}-${uniqueCounter}`;
}

interface OidcAttempt {
  /** Where the app sent the browser to sign in. */
  authorizeUrl: URL;
  /** Where the provider sent the browser back. */
  callbackUrl: URL;
  /** The app's answer to the callback. */
  callback: Response;
  /** Where that answer redirects, resolved against the app. */
  location: URL | null;
}

/**
 * One OIDC sign-in as a browser does it: the app's CSRF token, the sign-in form POST, the
 * provider's authorize endpoint (which answers at once for the profile chosen here), and the
 * callback back at the app with the cookies of the first step.
 */
async function authorizeWithOidc(
  client: TestClient,
  provider: FakeOidcProvider,
  profile: FakeOidcProfile,
  callbackUrl = `${client.baseUrl}/`,
): Promise<{ authorizeUrl: URL; callbackUrl: URL }> {
  const csrfToken = await client.getCsrfToken();
  const start = await client.request("/api/auth/signin/oidc", { body: { form: { csrfToken, callbackUrl } } });
  expect(start.status, "POST /api/auth/signin/oidc").toBe(302);
  const authorizeUrl = new URL(start.headers.get("location") ?? "");
  expect(authorizeUrl.origin + authorizeUrl.pathname).toBe(provider.authorizationEndpoint);

  provider.setProfile(profile);
  const authorize = await fetch(authorizeUrl, { redirect: "manual" });
  expect(authorize.status, "the provider's authorize endpoint").toBe(302);
  const back = new URL(authorize.headers.get("location") ?? "");
  expect(back.origin + back.pathname).toBe(`${client.baseUrl}/api/auth/callback/oidc`);
  return { authorizeUrl, callbackUrl: back };
}

async function openCallback(client: TestClient, authorizeUrl: URL, callbackUrl: URL): Promise<OidcAttempt> {
  const callback = await client.request(callbackUrl.pathname + callbackUrl.search);
  const locationHeader = callback.headers.get("location");
  return { authorizeUrl, callbackUrl, callback, location: locationHeader ? new URL(locationHeader, client.baseUrl) : null };
}

async function signInWithOidc(
  client: TestClient,
  provider: FakeOidcProvider,
  profile: FakeOidcProfile,
  options: { callbackUrl?: string; alterCallback?: (url: URL) => void; callbackClient?: TestClient } = {},
): Promise<OidcAttempt> {
  const { authorizeUrl, callbackUrl } = await authorizeWithOidc(client, provider, profile, options.callbackUrl);
  options.alterCallback?.(callbackUrl);
  return openCallback(options.callbackClient ?? client, authorizeUrl, callbackUrl);
}

/** Follows the app's own redirects (as a browser would) and answers the page it lands on. */
async function followToPage(client: TestClient, from: URL): Promise<{ url: URL; status: number; text: string }> {
  let url = from;
  for (let hop = 0; hop < 5; hop += 1) {
    expect(url.origin, "a redirect left the app").toBe(client.baseUrl);
    const response = await client.request(url.pathname + url.search);
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      url = new URL(location, url);
      continue;
    }
    return { url, status: response.status, text: pageText(await response.text()) };
  }
  throw new Error(`More than 5 redirects from ${from.toString()}`);
}

/** The visible text of an HTML page: no scripts, no tags, entities decoded, spaces collapsed. */
function pageText(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/gi, " ")
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

function setsSessionCookie(response: Response): boolean {
  return response.headers.getSetCookie().some((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`) && !cookie.startsWith(`${SESSION_COOKIE}=;`));
}

async function expectNoSession(client: TestClient, attempt: OidcAttempt): Promise<void> {
  expect(setsSessionCookie(attempt.callback), "the callback set a session cookie").toBe(false);
  expect(client.sessionToken).toBeUndefined();
  expect(await client.session()).toEqual({});
}

/**
 * next-auth v4 sends failures of the OAuth exchange itself (OAuthCallback: a bad state, code or ID
 * token; Callback: the provider answered with an error) through /api/auth/error to pages.signIn,
 * not to pages.error: the branded /signin shows the sentence and the buttons to try again.
 */
async function expectOAuthExchangeFailure(client: TestClient, attempt: OidcAttempt, code: "OAuthCallback" | "Callback"): Promise<void> {
  expect(attempt.callback.status).toBe(302);
  expect(attempt.location?.origin).toBe(client.baseUrl);
  expect(attempt.location?.pathname).toBe("/api/auth/error");
  expect(attempt.location?.searchParams.get("error")).toBe(code);
  await expectNoSession(client, attempt);
  const page = await followToPage(client, attempt.location as URL);
  expect(page.status).toBe(200);
  expect(page.url.pathname).toBe("/signin");
  expect(page.url.searchParams.get("error")).toBe(code);
  expect(page.text).toContain(message(code));
  expect(page.text).toContain(`Continue with ${OIDC_NAME}`);
  expect(await client.session()).toEqual({});
}

function message(code: string): string {
  const sentence = describeSignInError(code);
  if (!sentence) throw new Error(`No sentence for ${code}`);
  return sentence;
}

describe("OpenID Connect sign-in", () => {
  let provider: FakeOidcProvider;
  let app: App;
  let signupApp: App;
  let admin: TestClient;

  beforeAll(async () => {
    provider = await startFakeOidcProvider({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
    // Both servers start at once: the one by default (no sign-up), and one with OAUTH_ALLOW_SIGNUP.
    const [main, signup] = await Promise.allSettled([
      startApp(provider, { OIDC_NAME }),
      startApp(provider, { OIDC_NAME, OAUTH_ALLOW_SIGNUP: "true" }),
    ]);
    if (main.status === "fulfilled") app = main.value;
    if (signup.status === "fulfilled") signupApp = signup.value;
    if (main.status === "rejected") throw main.reason;
    if (signup.status === "rejected") throw signup.reason;
    admin = await signedInAdmin(app);
  });

  afterAll(async () => {
    await Promise.all([app?.stop(), signupApp?.stop()]);
    await provider?.stop();
  });

  async function linkedAccounts(sub: string) {
    return app.db.selectFrom("oauth_accounts").selectAll().where("provider", "=", "oidc").where("provider_account_id", "=", sub).execute();
  }

  it("(a) lists the OIDC provider under OIDC_NAME and shows its button on /signin", async () => {
    const providers = (await (await fetch(`${app.url}/api/auth/providers`)).json()) as Record<string, { id: string; name: string; type: string }>;
    expect(Object.keys(providers).sort()).toEqual(["credentials", "oidc"]);
    expect(providers.oidc).toMatchObject({ id: "oidc", name: OIDC_NAME, type: "oauth" });

    const page = await fetch(`${app.url}/signin`);
    expect(page.status).toBe(200);
    expect(pageText(await page.text())).toContain(`Continue with ${OIDC_NAME}`);
  });

  it("does not start an OIDC sign-in without the CSRF token", async () => {
    const client = new TestClient(app.url);
    await client.getCsrfToken();
    const start = await client.request("/api/auth/signin/oidc", { body: { form: { csrfToken: "not-the-token", callbackUrl: `${app.url}/` } } });
    expect(start.status).toBe(302);
    expect(new URL(start.headers.get("location") ?? "", app.url).origin).toBe(app.url);
    expect(client.cookies.has("next-auth.state")).toBe(false);
    expect(client.cookies.has("next-auth.pkce.code_verifier")).toBe(false);

    // With the token the same request goes to the provider and sets both cookies.
    const csrfToken = await client.getCsrfToken();
    const genuine = await client.request("/api/auth/signin/oidc", { body: { form: { csrfToken, callbackUrl: `${app.url}/` } } });
    expect(genuine.status).toBe(302);
    expect(new URL(genuine.headers.get("location") ?? "").toString().startsWith(`${provider.authorizationEndpoint}?`)).toBe(true);
    expect(client.cookies.has("next-auth.state")).toBe(true);
    expect(client.cookies.has("next-auth.pkce.code_verifier")).toBe(true);
  });

  it("(b) signs an existing user in by verified e-mail, links the identity, and signs in through the link again", async () => {
    const editor = await createTestUser(admin, "editor", "Edith Editor");
    const sub = unique("sub-editor");
    const client = new TestClient(app.url);
    const attempt = await signInWithOidc(client, provider, { sub, email: editor.email.toUpperCase(), email_verified: true, name: "Edith at Acme" }, {
      callbackUrl: `${app.url}/admin`,
    });

    // What the app asked the provider for: the authorization code flow with PKCE (S256) and state.
    expect(Object.fromEntries(attempt.authorizeUrl.searchParams)).toMatchObject({
      client_id: CLIENT_ID,
      response_type: "code",
      redirect_uri: `${app.url}/api/auth/callback/oidc`,
      scope: "openid email profile",
      code_challenge_method: "S256",
    });
    expect(attempt.authorizeUrl.searchParams.get("state")).toMatch(/.{16,}/);
    expect(attempt.authorizeUrl.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The code was exchanged with the client's secret and the PKCE verifier (the provider checks both).
    const exchange = provider.requestsTo("/token").find((request) => request.form.code === attempt.callbackUrl.searchParams.get("code"));
    expect(exchange?.form.code_verifier).toMatch(/^[A-Za-z0-9._~-]{43,128}$/);

    expect(attempt.callback.status, app.server.output()).toBe(302);
    expect(attempt.location?.toString()).toBe(`${app.url}/admin`);
    expect(setsSessionCookie(attempt.callback)).toBe(true);
    expect(await client.session()).toMatchObject({ user: { id: editor.id, email: editor.email, role: "editor" } });
    expect((await client.request("/admin")).status).toBe(200);
    expect(await linkedAccounts(sub)).toEqual([expect.objectContaining({ user_id: editor.id })]);
    const audit = await app.db.selectFrom("audit_log").select("action").where("target_id", "=", editor.id).where("action", "=", "user.oauth-link").execute();
    expect(audit).toHaveLength(1);

    // Later, the provider no longer vouches for the e-mail (or it changed): the stored link decides.
    const again = new TestClient(app.url);
    const second = await signInWithOidc(again, provider, { sub, email: "changed-address@elsewhere.test", email_verified: false }, {
      callbackUrl: "https://evil.example/steal",
    });
    expect(second.location?.toString()).toBe(`${app.url}/`);
    expect(await again.session()).toMatchObject({ user: { id: editor.id, email: editor.email, role: "editor" } });
    expect(await linkedAccounts(sub)).toHaveLength(1);
  });

  it("(c) refuses to link an existing e-mail the provider did not verify (OAuthAccountNotLinked)", async () => {
    const viewer = await createTestUser(admin, "viewer");
    const sub = unique("sub-unverified");
    const client = new TestClient(app.url);
    const attempt = await signInWithOidc(client, provider, { sub, email: viewer.email, email_verified: false, name: "Mallory" });

    expect(attempt.callback.status).toBe(302);
    expect(attempt.location?.pathname).toBe("/auth/error");
    expect(attempt.location?.searchParams.get("error")).toBe("OAuthAccountNotLinked");
    await expectNoSession(client, attempt);
    const page = await followToPage(client, attempt.location as URL);
    expect(page.url.pathname).toBe("/auth/error");
    expect(page.text).toContain(message("OAuthAccountNotLinked"));
    expect(await linkedAccounts(sub)).toEqual([]);

    // Without email_verified at all, the same.
    const other = new TestClient(app.url);
    const missing = await signInWithOidc(other, provider, { sub: unique("sub-no-claim"), email: viewer.email });
    expect(missing.location?.searchParams.get("error")).toBe("OAuthAccountNotLinked");
    await expectNoSession(other, missing);
  });

  it("(d) refuses an unknown e-mail when sign-up is off (AccessDenied) and creates nobody", async () => {
    const email = `${unique("stranger")}@example.test`;
    const sub = unique("sub-stranger");
    const client = new TestClient(app.url);
    const attempt = await signInWithOidc(client, provider, { sub, email, email_verified: true, name: "Stranger" });

    expect(attempt.callback.status).toBe(302);
    expect(attempt.location?.pathname).toBe("/auth/error");
    expect(attempt.location?.searchParams.get("error")).toBe("AccessDenied");
    await expectNoSession(client, attempt);
    const page = await followToPage(client, attempt.location as URL);
    expect(page.text).toContain(message("AccessDenied"));

    expect(await app.db.selectFrom("users").select("id").where("email", "=", email).execute()).toEqual([]);
    expect(await linkedAccounts(sub)).toEqual([]);
  });

  it("(e) with OAUTH_ALLOW_SIGNUP=true creates a viewer for a new verified e-mail and signs it in", async () => {
    const email = `${unique("newcomer")}@example.test`;
    const sub = unique("sub-newcomer");
    const client = new TestClient(signupApp.url);
    const attempt = await signInWithOidc(client, provider, { sub, email, email_verified: true, name: "Nina Newcomer" });

    expect(attempt.callback.status, signupApp.server.output()).toBe(302);
    expect(attempt.location?.toString()).toBe(`${signupApp.url}/`);
    const rows = await signupApp.db.selectFrom("users").selectAll().where("email", "=", email).execute();
    expect(rows).toEqual([expect.objectContaining({ name: "Nina Newcomer", role: "viewer", password_hash: null, disabled_at: null })]);
    expect(await client.session()).toMatchObject({ user: { id: rows[0].id, email, name: "Nina Newcomer", role: "viewer" } });
    const links = await signupApp.db.selectFrom("oauth_accounts").selectAll().where("provider_account_id", "=", sub).execute();
    expect(links).toEqual([expect.objectContaining({ provider: "oidc", user_id: rows[0].id })]);
    // A viewer may see members-only photos, and is not an editor.
    expect((await client.request("/api/photos")).status).toBe(200);
    expect((await client.request("/api/upload", { method: "POST" })).status).toBe(403);

    // Sign-up needs a verified e-mail too.
    const unverifiedEmail = `${unique("unverified-newcomer")}@example.test`;
    const other = new TestClient(signupApp.url);
    const refused = await signInWithOidc(other, provider, { sub: unique("sub-unverified-newcomer"), email: unverifiedEmail, email_verified: false });
    expect(refused.location?.pathname).toBe("/auth/error");
    expect(refused.location?.searchParams.get("error")).toBe("AccessDenied");
    await expectNoSession(other, refused);
    expect(await signupApp.db.selectFrom("users").select("id").where("email", "=", unverifiedEmail).execute()).toEqual([]);
  });

  it("creates one account when the first two sign-ins of a new identity arrive at once", async () => {
    const email = `${unique("twice")}@example.test`;
    const profile = { sub: unique("sub-twice"), email, email_verified: true, name: "Tess Twice" };
    const clients = [new TestClient(signupApp.url), new TestClient(signupApp.url)];
    const authorized: Array<{ authorizeUrl: URL; callbackUrl: URL }> = [];
    for (const client of clients) authorized.push(await authorizeWithOidc(client, provider, profile));
    // Both callbacks at once, as two tabs (or a double click) would send them.
    const attempts = await Promise.all(clients.map((client, index) => openCallback(client, authorized[index].authorizeUrl, authorized[index].callbackUrl)));

    for (const attempt of attempts) expect(attempt.location?.toString(), signupApp.server.output()).toBe(`${signupApp.url}/`);
    const rows = await signupApp.db.selectFrom("users").select("id").where("email", "=", email).execute();
    expect(rows).toHaveLength(1);
    for (const client of clients) expect(await client.session()).toMatchObject({ user: { id: rows[0].id, role: "viewer" } });
    expect(await signupApp.db.selectFrom("oauth_accounts").select("user_id").where("provider_account_id", "=", profile.sub).execute()).toEqual([
      { user_id: rows[0].id },
    ]);
  });

  it("keeps an OAuth sign-up atomic, and its failure out of the URL, when the database refuses it", async () => {
    // A trigger that refuses to link identities whose sub starts with "explode-", as a failing
    // database would, in the sign-up server's own database.
    const isPostgres = inject("databaseKind") === "postgres";
    if (isPostgres) {
      await sql`CREATE FUNCTION test_refuse_link() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.provider_account_id LIKE 'explode-%' THEN RAISE EXCEPTION 'internal detail 4711'; END IF; RETURN NEW; END $$`.execute(signupApp.db);
      await sql`CREATE TRIGGER test_refuse_link BEFORE INSERT ON oauth_accounts FOR EACH ROW EXECUTE FUNCTION test_refuse_link()`.execute(signupApp.db);
    } else {
      await sql`CREATE TRIGGER test_refuse_link BEFORE INSERT ON oauth_accounts WHEN NEW.provider_account_id LIKE 'explode-%'
        BEGIN SELECT RAISE(ABORT, 'internal detail 4711'); END`.execute(signupApp.db);
    }
    try {
      const email = `${unique("exploding")}@example.test`;
      const client = new TestClient(signupApp.url);
      const attempt = await signInWithOidc(client, provider, { sub: unique("explode"), email, email_verified: true });

      expect(attempt.callback.status).toBe(302);
      await expectNoSession(client, attempt);
      // The user row went with the failed link (one transaction).
      expect(await signupApp.db.selectFrom("users").select("id").where("email", "=", email).execute()).toEqual([]);
      // The visitor sees one of our sentences; the database's words stay in the server log.
      expect(attempt.location?.toString()).not.toContain("4711");
      const code = attempt.location?.searchParams.get("error") ?? "";
      expect(describeSignInError(code), `error=${code}`).not.toBe(DEFAULT_SIGN_IN_MESSAGE);
      const page = await followToPage(client, attempt.location as URL);
      expect(page.text).toContain(message(page.url.searchParams.get("error") ?? ""));
      await expect.poll(() => signupApp.server.output(), { timeout: 2000 }).toContain("internal detail 4711");
    } finally {
      await sql`DROP TRIGGER test_refuse_link${isPostgres ? sql` ON oauth_accounts` : sql``}`.execute(signupApp.db);
      if (isPostgres) await sql`DROP FUNCTION test_refuse_link()`.execute(signupApp.db);
    }
  });

  it("cleans an OAuth sign-up's display name like every other name (no control characters)", async () => {
    const email = `${unique("control")}@example.test`;
    const client = new TestClient(signupApp.url);
    const attempt = await signInWithOidc(client, provider, { sub: unique("sub-control"), email, email_verified: true, name: " Eve\u0000 \r\nEvil\u007f " });

    expect(attempt.location?.toString()).toBe(`${signupApp.url}/`);
    const row = await signupApp.db.selectFrom("users").select(["id", "name"]).where("email", "=", email).executeTakeFirst();
    expect(row?.name).toBe("Eve Evil");
    expect(await client.session()).toMatchObject({ user: { id: row?.id, name: "Eve Evil" } });
  });

  it("names an OAuth sign-up after its e-mail when the provider's name is empty or blank", async () => {
    for (const name of ["", "   "]) {
      const email = `${unique("blank")}@example.test`;
      const client = new TestClient(signupApp.url);
      const attempt = await signInWithOidc(client, provider, { sub: unique("sub-blank"), email, email_verified: true, name });
      expect(attempt.location?.toString(), JSON.stringify(name)).toBe(`${signupApp.url}/`);
      const row = await signupApp.db.selectFrom("users").select("name").where("email", "=", email).executeTakeFirst();
      expect(row?.name, JSON.stringify(name)).toBe(email);
    }
  });

  it("refuses an OAuth sign-up whose e-mail is not a valid address, and creates nobody", async () => {
    for (const email of ["not-an-address", `${unique("two")}@example.test, victim@example.test`]) {
      const client = new TestClient(signupApp.url);
      const attempt = await signInWithOidc(client, provider, { sub: unique("sub-invalid"), email, email_verified: true });
      expect(attempt.location?.pathname, email).toBe("/auth/error");
      expect(attempt.location?.searchParams.get("error"), email).toBe("AccessDenied");
      await expectNoSession(client, attempt);
      expect(await signupApp.db.selectFrom("users").select("id").where("email", "=", email).execute(), email).toEqual([]);
    }
  });

  it("(f) shows an error, without a session, when the provider answers error=access_denied", async () => {
    const viewer = await createTestUser(admin, "viewer");
    const sub = unique("sub-cancel");
    const client = new TestClient(app.url);
    provider.failNextAuthorization("access_denied", "The user cancelled");
    const attempt = await signInWithOidc(client, provider, { sub, email: viewer.email, email_verified: true });

    expect(attempt.callbackUrl.searchParams.get("error")).toBe("access_denied");
    expect(attempt.callbackUrl.searchParams.has("code")).toBe(false);
    await expectOAuthExchangeFailure(client, attempt, "Callback");
    expect(await linkedAccounts(sub)).toEqual([]);
  });

  it("(g) refuses a callback whose state was tampered with, before exchanging the code", async () => {
    const viewer = await createTestUser(admin, "viewer");
    const sub = unique("sub-tampered");
    const client = new TestClient(app.url);
    const attempt = await signInWithOidc(client, provider, { sub, email: viewer.email, email_verified: true }, {
      alterCallback: (url) => url.searchParams.set("state", "forged-state-value-0123456789"),
    });

    await expectOAuthExchangeFailure(client, attempt, "OAuthCallback");
    const code = attempt.callbackUrl.searchParams.get("code");
    expect(code).toBeTruthy();
    expect(provider.requestsTo("/token").filter((request) => request.form.code === code)).toEqual([]);
    expect(await linkedAccounts(sub)).toEqual([]);
  });

  it("(g) refuses a genuine callback opened in another browser (no state or PKCE cookies)", async () => {
    const viewer = await createTestUser(admin, "viewer");
    const sub = unique("sub-other-browser");
    const victim = new TestClient(app.url);
    const attempt = await signInWithOidc(new TestClient(app.url), provider, { sub, email: viewer.email, email_verified: true }, {
      callbackClient: victim,
    });

    await expectOAuthExchangeFailure(victim, attempt, "OAuthCallback");
    expect(provider.requestsTo("/token").filter((request) => request.form.code === attempt.callbackUrl.searchParams.get("code"))).toEqual([]);
    expect(await linkedAccounts(sub)).toEqual([]);
  });

  it("refuses an ID token that is forged, for another client, from another issuer, expired or unsigned", async () => {
    const viewer = await createTestUser(admin, "viewer");
    for (const fault of ["foreign-key", "wrong-audience", "wrong-issuer", "expired", "unsigned"] as const) {
      const sub = unique(`sub-${fault}`);
      const client = new TestClient(app.url);
      provider.breakNextIdToken(fault);
      const attempt = await signInWithOidc(client, provider, { sub, email: viewer.email, email_verified: true });
      // The code was exchanged (the fault is in the ID token, not in the exchange)...
      expect(provider.requestsTo("/token").some((request) => request.form.code === attempt.callbackUrl.searchParams.get("code")), fault).toBe(true);
      // ...and the answer refused.
      expect(attempt.location?.searchParams.get("error"), fault).toBe("OAuthCallback");
      await expectNoSession(client, attempt);
      expect(await linkedAccounts(sub), fault).toEqual([]);
    }
  });

  it("(h) refuses the next OAuth sign-in of a linked user whom the admin disabled (AccessDenied)", async () => {
    const viewer: TestUser = await createTestUser(admin, "viewer", "Dora Disabled");
    const sub = unique("sub-disabled");
    const profile = { sub, email: viewer.email, email_verified: true };
    const first = new TestClient(app.url);
    await signInWithOidc(first, provider, profile);
    expect(await first.session()).toMatchObject({ user: { id: viewer.id, role: "viewer" } });
    expect(await linkedAccounts(sub)).toHaveLength(1);

    const disable = await admin.request(`/api/admin/users/${viewer.id}`, { method: "PATCH", body: { json: { disabled: true } } });
    expect(disable.status).toBe(200);

    const client = new TestClient(app.url);
    const attempt = await signInWithOidc(client, provider, profile);
    expect(attempt.location?.pathname).toBe("/auth/error");
    expect(attempt.location?.searchParams.get("error")).toBe("AccessDenied");
    await expectNoSession(client, attempt);
    const page = await followToPage(client, attempt.location as URL);
    expect(page.text).toContain(message("AccessDenied"));
    // The session from before is refused too.
    expect(await first.session()).toEqual({});

    // Another identity with the same verified e-mail is not linked to the disabled account either.
    const otherSub = unique("sub-disabled-other");
    const other = new TestClient(app.url);
    const viaEmail = await signInWithOidc(other, provider, { sub: otherSub, email: viewer.email, email_verified: true });
    expect(viaEmail.location?.searchParams.get("error")).toBe("AccessDenied");
    await expectNoSession(other, viaEmail);
    expect(await linkedAccounts(otherSub)).toEqual([]);
  });

  it("forgets the identity of a deleted user: a re-invited account with that e-mail gets linked afresh", async () => {
    const first = await createTestUser(admin, "viewer", "Del Deleted");
    const sub = unique("sub-deleted");
    const profile = { sub, email: first.email, email_verified: true };
    await signInWithOidc(new TestClient(app.url), provider, profile);
    expect(await linkedAccounts(sub)).toEqual([expect.objectContaining({ user_id: first.id })]);

    expect((await admin.request(`/api/admin/users/${first.id}`, { method: "DELETE" })).status).toBe(204);
    expect(await linkedAccounts(sub)).toEqual([]);

    const invited = await admin.request("/api/admin/users", {
      body: { json: { email: first.email, name: "Del Again", role: "editor", password: "re-invited-password-1" } },
    });
    expect(invited.status).toBe(201);
    const { user } = (await invited.json()) as { user: { id: string } };
    const client = new TestClient(app.url);
    await signInWithOidc(client, provider, profile);
    expect(await client.session()).toMatchObject({ user: { id: user.id, email: first.email, role: "editor" } });
    expect(await linkedAccounts(sub)).toEqual([expect.objectContaining({ user_id: user.id })]);
  });
});

describe("without OIDC settings", () => {
  it("(i) lists only the credentials provider and shows no provider button", async () => {
    const baseUrl = inject("baseUrl");
    const providers = (await (await fetch(`${baseUrl}/api/auth/providers`)).json()) as Record<string, unknown>;
    expect(Object.keys(providers)).toEqual(["credentials"]);
    const page = await fetch(`${baseUrl}/signin`);
    expect(page.status).toBe(200);
    const text = pageText(await page.text());
    expect(text).toContain("Sign in to Contact Sheet");
    expect(text).not.toContain("Continue with");
  });
});
