import { describe, expect, it } from "vitest";
import { TEST_ADMIN } from "./setup/global-setup";
import { createTestUser, signedInAdmin, signedInAs, TestClient } from "./helpers/test-client";
import {
  flipOneCharacter,
  type ForgedClaims,
  sealOtherPurposeValue,
  sealToken,
  signWithoutEncryption,
  unsignedToken,
} from "./helpers/tokens";

/** Checks that a client is treated as signed out everywhere a session matters. */
async function expectSignedOut(client: TestClient): Promise<void> {
  expect((await client.request("/api/photos")).status).toBe(401);
  const admin = await client.request("/admin");
  expect(admin.status).toBe(307);
  expect(admin.headers.get("location")).toContain("/signin?callbackUrl=%2Fadmin");
  expect(await client.session()).toEqual({});
}

async function followRedirects(client: TestClient, path: string): Promise<{ finalPath: string; body: string }> {
  let current = path;
  for (let hop = 0; hop < 5; hop += 1) {
    const response = await client.request(current);
    const location = response.headers.get("location");
    if (!location) return { finalPath: current, body: await response.text() };
    const next = new URL(location, client.baseUrl);
    current = next.pathname + next.search;
  }
  throw new Error(`Too many redirects from ${path}`);
}

function clientWithToken(token: string): TestClient {
  const client = new TestClient();
  client.setSessionToken(token);
  return client;
}

describe("next-auth endpoints", () => {
  it("answers session, csrf and providers", async () => {
    const client = new TestClient();
    expect(await client.session()).toEqual({});
    const csrf = await client.request("/api/auth/csrf");
    expect(csrf.status).toBe(200);
    expect((await csrf.json()) as { csrfToken: string }).toMatchObject({ csrfToken: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const providers = (await (await client.request("/api/auth/providers")).json()) as Record<string, { id: string }>;
    expect(Object.keys(providers)).toEqual(["credentials"]);
  });

  it("keeps /api/auth/signin and /api/auth/error answering, pointing at the branded pages", async () => {
    const client = new TestClient();
    const signIn = await client.request("/api/auth/signin");
    expect(signIn.status).toBe(302);
    expect(new URL(signIn.headers.get("location") ?? "", client.baseUrl).pathname).toBe("/signin");
    const accessDenied = await client.request("/api/auth/error?error=AccessDenied");
    expect(accessDenied.status).toBe(302);
    expect(accessDenied.headers.get("location")).toContain("/auth/error?error=AccessDenied");
    expect(await (await client.request("/auth/error?error=AccessDenied")).text()).toContain("This account may not sign in here.");

    // next-auth sends its sign-in errors (OAuth callback failures among them) to the sign-in page.
    const { finalPath, body } = await followRedirects(client, "/api/auth/error?error=OAuthCallback");
    expect(finalPath).toMatch(/^\/signin\?.*error=OAuthCallback/);
    expect(body).toContain("The provider&#x27;s answer could not be checked");
  });

  it("signs in with a password, shows the user in the session, and signs out", async () => {
    const admin = await signedInAdmin();
    const user = await createTestUser(admin, "editor", "Eddie Editor");
    const client = new TestClient();
    const response = await client.signIn(user.email.toUpperCase(), user.password);
    expect(response.status).toBe(200);
    expect(client.sessionToken).toBeTruthy();
    expect(await client.session()).toMatchObject({ user: { id: user.id, name: "Eddie Editor", role: "editor", email: user.email } });

    const token = client.sessionToken ?? "";
    expect((await client.signOut()).status).toBe(200);
    expect(client.sessionToken).toBeUndefined();
    await expectSignedOut(client);
    // next-auth only deletes the cookie; the copied token must be dead too (SECURITY 33).
    await expectSignedOut(clientWithToken(token));
  });

  it("refuses a wrong password with next-auth's error and no session", async () => {
    const client = new TestClient();
    const response = await client.signIn(TEST_ADMIN.email, "not-the-password");
    expect(response.status).toBe(401);
    expect(((await response.json()) as { url: string }).url).toContain("error=CredentialsSignin");
    expect(client.sessionToken).toBeUndefined();
  });

  it("sets no session cookie for a credentials POST without or with a wrong csrfToken (34)", async () => {
    const withoutToken = new TestClient();
    await withoutToken.getCsrfToken();
    const missing = await withoutToken.signIn(TEST_ADMIN.email, TEST_ADMIN.password, { csrfToken: null });
    expect(missing.headers.getSetCookie().join("\n")).not.toContain("next-auth.session-token=");
    expect(withoutToken.sessionToken).toBeUndefined();

    const wrongToken = new TestClient();
    await wrongToken.getCsrfToken();
    await wrongToken.signIn(TEST_ADMIN.email, TEST_ADMIN.password, { csrfToken: "0".repeat(64) });
    expect(wrongToken.sessionToken).toBeUndefined();

    // A token from another browser's cookie does not match this browser's cookie either.
    const victim = new TestClient();
    const stolenToken = await victim.getCsrfToken();
    const attacker = new TestClient();
    await attacker.getCsrfToken();
    await attacker.signIn(TEST_ADMIN.email, TEST_ADMIN.password, { csrfToken: stolenToken });
    expect(attacker.sessionToken).toBeUndefined();
  });
});

describe("session tokens", () => {
  async function adminClaims(): Promise<ForgedClaims> {
    const session = await (await signedInAdmin()).session();
    const user = session.user as { id: string };
    return { sub: user.id, role: "admin", sessionVersion: 1 };
  }

  it("accepts a correctly sealed token (so the refusals below are about the token)", async () => {
    const client = clientWithToken(await sealToken(await adminClaims()));
    expect((await client.request("/api/admin/users")).status).toBe(200);
  });

  it("refuses an expired token (28)", async () => {
    await expectSignedOut(clientWithToken(await sealToken(await adminClaims(), { maxAgeSeconds: -120 })));
  });

  it("refuses a token with one flipped character, or sealed with another secret (29)", async () => {
    const real = await sealToken(await adminClaims());
    await expectSignedOut(clientWithToken(flipOneCharacter(real)));
    await expectSignedOut(clientWithToken(await sealToken(await adminClaims(), { secret: "another-secret-0123456789abcdefghijkl" })));
  });

  it("refuses an unsigned (alg none) or signed-but-not-encrypted token (30)", async () => {
    await expectSignedOut(clientWithToken(unsignedToken(await adminClaims())));
    await expectSignedOut(clientWithToken(await signWithoutEncryption(await adminClaims())));
  });

  it("refuses a value sealed for another purpose, such as an OAuth state or PKCE cookie (31)", async () => {
    await expectSignedOut(clientWithToken(await sealOtherPurposeValue()));
    const claims = await adminClaims();
    await expectSignedOut(clientWithToken(await sealToken({ ...claims, kind: "pkce" })));
  });

  it("refuses a session older than the absolute limit, however active", async () => {
    const claims = await adminClaims();
    const thirtyOneDaysAgo = Math.floor(Date.now() / 1000) - 31 * 24 * 60 * 60;
    await expectSignedOut(clientWithToken(await sealToken({ ...claims, authTime: thirtyOneDaysAgo })));
  });

  it("ignores the role written in the token: the database decides", async () => {
    const { user } = await signedInAs("viewer");
    const client = clientWithToken(await sealToken({ sub: user.id, role: "admin", sessionVersion: 1 }));
    const response = await client.request("/api/admin/users");
    expect(response.status).toBe(403);
  });
});

describe("users whose standing changed (32, 33)", () => {
  it("refuses a deleted user on the next request", async () => {
    const { client, user, admin } = await signedInAs("editor");
    expect((await client.request("/api/photos")).status).toBe(200);
    expect((await admin.request(`/api/admin/users/${user.id}`, { method: "DELETE" })).status).toBe(204);
    await expectSignedOut(client);
  });

  it("refuses a disabled user on the next request, and refuses their sign-in", async () => {
    const { client, user, admin } = await signedInAs("editor");
    const patch = await admin.request(`/api/admin/users/${user.id}`, { method: "PATCH", body: { json: { disabled: true } } });
    expect(patch.status).toBe(200);
    await expectSignedOut(client);
    const again = new TestClient();
    await again.signIn(user.email, user.password);
    expect(again.sessionToken).toBeUndefined();
  });

  it("ends the sessions of a demoted user; signed in again, they have the new role", async () => {
    const { client, user, admin } = await signedInAs("editor");
    expect((await client.request("/api/upload")).status).toBe(200);
    await admin.request(`/api/admin/users/${user.id}`, { method: "PATCH", body: { json: { role: "viewer" } } });
    await expectSignedOut(client);
    const again = new TestClient();
    await again.signIn(user.email, user.password);
    expect(await again.session()).toMatchObject({ user: { role: "viewer" } });
    expect((await again.request("/api/upload")).status).toBe(403);
    expect((await again.request("/api/photos")).status).toBe(200);
  });

  async function patchUser(admin: TestClient, id: string, changes: Record<string, unknown>): Promise<void> {
    const response = await admin.request(`/api/admin/users/${id}`, { method: "PATCH", body: { json: changes } });
    expect(response.status).toBe(200);
  }

  it("keeps sessions from before a disable dead after the user is enabled again (52)", async () => {
    const { client, user, admin } = await signedInAs("editor");
    const secondDevice = new TestClient();
    await secondDevice.signIn(user.email, user.password);
    await patchUser(admin, user.id, { disabled: true });
    await patchUser(admin, user.id, { disabled: false });
    await expectSignedOut(client);
    await expectSignedOut(secondDevice);
    const fresh = new TestClient();
    await fresh.signIn(user.email, user.password);
    expect((await fresh.request("/api/upload")).status).toBe(200);
  });

  it.each([
    ["viewer", "editor"],
    ["editor", "viewer"],
    ["editor", "admin"],
    ["admin", "viewer"],
  ] as const)("keeps sessions of a %s dead after a change to %s and back (52)", async (role, otherRole) => {
    const admin = await signedInAdmin();
    const user = await createTestUser(admin, role);
    const client = new TestClient();
    await client.signIn(user.email, user.password);
    expect((await client.request("/api/photos")).status).toBe(200);
    await patchUser(admin, user.id, { role: otherRole });
    await patchUser(admin, user.id, { role });
    await expectSignedOut(client);
  });

  it("leaves sessions alone when an admin only renames the user, or sets the role it already has", async () => {
    const { client, user, admin } = await signedInAs("editor");
    await patchUser(admin, user.id, { name: "Renamed Editor" });
    await patchUser(admin, user.id, { role: "editor", disabled: false });
    expect((await client.request("/api/upload")).status).toBe(200);
    expect(await client.session()).toMatchObject({ user: { name: "Renamed Editor", role: "editor" } });
  });

  it("keeps a deleted user's session dead, even after an account with the same e-mail is made again", async () => {
    const { client, user, admin } = await signedInAs("viewer");
    expect((await admin.request(`/api/admin/users/${user.id}`, { method: "DELETE" })).status).toBe(204);
    const recreated = await admin.request("/api/admin/users", {
      body: { json: { email: user.email, name: "Same Address", role: "viewer", password: user.password } },
    });
    expect(recreated.status).toBe(201);
    await expectSignedOut(client);
  });

  it("refuses every earlier token after 'sign out everywhere', and lets the user sign in again", async () => {
    const { client, user, admin } = await signedInAs("viewer");
    const secondDevice = new TestClient();
    await secondDevice.signIn(user.email, user.password);
    expect((await admin.request(`/api/admin/users/${user.id}/sessions`, { method: "DELETE" })).status).toBe(204);
    await expectSignedOut(client);
    await expectSignedOut(secondDevice);
    const fresh = new TestClient();
    await fresh.signIn(user.email, user.password);
    expect((await fresh.request("/api/photos")).status).toBe(200);
  });

  it("lets a user sign themselves out everywhere", async () => {
    const { client, user } = await signedInAs("viewer");
    const otherDevice = new TestClient();
    await otherDevice.signIn(user.email, user.password);
    expect((await client.request("/api/me/sessions", { method: "DELETE" })).status).toBe(204);
    await expectSignedOut(otherDevice);
  });

  it("signs a user out everywhere when an admin resets their password", async () => {
    const { client, user, admin } = await signedInAs("viewer");
    const reset = await admin.request(`/api/admin/users/${user.id}/password`, { body: { json: { password: "a-brand-new-password" } } });
    expect(reset.status).toBe(204);
    await expectSignedOut(client);
    const oldPassword = new TestClient();
    await oldPassword.signIn(user.email, user.password);
    expect(oldPassword.sessionToken).toBeUndefined();
    const newPassword = new TestClient();
    await newPassword.signIn(user.email, "a-brand-new-password");
    expect(newPassword.sessionToken).toBeTruthy();
  });
});
