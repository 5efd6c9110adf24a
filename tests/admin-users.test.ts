import { inject } from "vitest";
import { describe, expect, it } from "vitest";
import { openTestDatabase } from "./helpers/test-database";
import { createTestUser, signedInAdmin, TestClient } from "./helpers/test-client";

interface ListedUser {
  id: string;
  email: string;
  role: string;
  isDisabled: boolean;
}

async function listUsers(admin: TestClient): Promise<ListedUser[]> {
  return ((await (await admin.request("/api/admin/users")).json()) as { users: ListedUser[] }).users;
}

function database() {
  return openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
}

describe("/api/admin/users", () => {
  it("creates a user who can then sign in, and never shows password hashes", async () => {
    const admin = await signedInAdmin();
    const email = `New.Person-${Date.now()}@Example.test`;
    const response = await admin.request("/api/admin/users", {
      body: { json: { email, name: "  New Person  ", role: "editor", password: "password-long-enough" } },
    });
    expect(response.status).toBe(201);
    const { user } = (await response.json()) as { user: Record<string, unknown> };
    expect(user).toMatchObject({ email: email.toLowerCase(), name: "New Person", role: "editor", isDisabled: false });
    expect(JSON.stringify(user)).not.toMatch(/argon2|password_hash|session_version/);
    expect((await listUsers(admin)).map((listed) => listed.email)).toContain(email.toLowerCase());

    const client = new TestClient();
    await client.signIn(email, "password-long-enough");
    expect(await client.session()).toMatchObject({ user: { role: "editor" } });
  });

  it("answers 409 for a second user with the same e-mail, in any case", async () => {
    const admin = await signedInAdmin();
    const user = await createTestUser(admin, "viewer");
    const response = await admin.request("/api/admin/users", {
      body: { json: { email: user.email.toUpperCase(), name: "Twin", role: "viewer", password: "password-long-enough" } },
    });
    expect(response.status).toBe(409);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("CONFLICT");
  });

  const invalidBodies: Array<[string, unknown]> = [
    ["a bad e-mail", { email: "not-an-email", name: "X", role: "viewer", password: "password-long-enough" }],
    ["a short password", { email: "short@example.test", name: "X", role: "viewer", password: "short" }],
    ["an unknown role", { email: "role@example.test", name: "X", role: "owner", password: "password-long-enough" }],
    ["an empty name", { email: "name@example.test", name: " \r\n ", role: "viewer", password: "password-long-enough" }],
  ];
  it.each(invalidBodies)("answers 422 with the failing field for %s, storing nothing", async (_label, body) => {
    const admin = await signedInAdmin();
    const before = (await listUsers(admin)).length;
    const response = await admin.request("/api/admin/users", { body: { json: body } });
    expect(response.status).toBe(422);
    const error = ((await response.json()) as { error: { code: string; issues: Array<{ path: string }> } }).error;
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.issues.length).toBeGreaterThan(0);
    expect((await listUsers(admin)).length).toBe(before);
  });

  it("answers 400 for a body that is not JSON", async () => {
    const admin = await signedInAdmin();
    const response = await admin.request("/api/admin/users", { body: { raw: "{not json", contentType: "application/json" } });
    expect(response.status).toBe(400);
  });

  it("answers 404 for an unknown user id on every verb", async () => {
    const admin = await signedInAdmin();
    const id = crypto.randomUUID();
    expect((await admin.request(`/api/admin/users/${id}`, { method: "PATCH", body: { json: { role: "viewer" } } })).status).toBe(404);
    expect((await admin.request(`/api/admin/users/${id}`, { method: "DELETE" })).status).toBe(404);
    expect((await admin.request(`/api/admin/users/${id}/password`, { body: { json: { password: "password-long-enough" } } })).status).toBe(404);
    expect((await admin.request(`/api/admin/users/${id}/sessions`, { method: "DELETE" })).status).toBe(404);
  });

  it("strips control characters from names so nothing reaches a header or a log line", async () => {
    const admin = await signedInAdmin();
    const user = await createTestUser(admin, "viewer");
    const response = await admin.request(`/api/admin/users/${user.id}`, { method: "PATCH", body: { json: { name: "Eve\r\nSet-Cookie: x=1" } } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { user: { name: string } }).user.name).toBe("EveSet-Cookie: x=1");
  });

  it("never leaves the site without an active admin", async () => {
    const admin = await signedInAdmin();
    const self = (await admin.session()).user as { id: string };
    const admins = (await listUsers(admin)).filter((user) => user.role === "admin" && !user.isDisabled);
    // Other tests may have made admins; demote them first so this one is the last.
    for (const other of admins.filter((user) => user.id !== self.id)) {
      await admin.request(`/api/admin/users/${other.id}`, { method: "PATCH", body: { json: { role: "viewer" } } });
    }
    for (const [method, body] of [
      ["PATCH", { role: "editor" }],
      ["PATCH", { disabled: true }],
      ["DELETE", undefined],
    ] as const) {
      const response = await admin.request(`/api/admin/users/${self.id}`, { method, body: body ? { json: body } : undefined });
      expect(response.status).toBe(409);
    }
    expect(await admin.session()).toMatchObject({ user: { role: "admin" } });
  });

  it("writes an audit entry for each admin action", async () => {
    const admin = await signedInAdmin();
    const user = await createTestUser(admin, "viewer");
    await admin.request(`/api/admin/users/${user.id}`, { method: "PATCH", body: { json: { role: "editor" } } });
    await admin.request(`/api/admin/users/${user.id}/sessions`, { method: "DELETE" });
    await admin.request(`/api/admin/users/${user.id}`, { method: "DELETE" });
    const db = database();
    try {
      const actions = await db.selectFrom("audit_log").select("action").where("target_id", "=", user.id).orderBy("created_at").execute();
      expect(actions.map((row) => row.action)).toEqual(["user.create", "user.update", "user.sign-out-everywhere", "user.delete"]);
      expect(await db.selectFrom("users").select("id").where("id", "=", user.id).executeTakeFirst()).toBeUndefined();
    } finally {
      await db.destroy();
    }
  });
});
