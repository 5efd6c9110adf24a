import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { findFreePort, type RunningServer, spawnServer, waitForExit, waitUntilHealthy } from "./helpers/server-process";
import { TestClient } from "./helpers/test-client";

const SECRET = "startup-test-secret-0123456789abcdefgh";
const started: RunningServer[] = [];
const folders: string[] = [];

function freshDataDirectory(): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "contact-sheet-startup-"));
  folders.push(folder);
  return folder;
}

// The setup page's refusal. Next.js sends a page's notFound() fallback in its RSC payload and
// the browser draws it, so the words are looked for in the whole answer.
const SETUP_LINK_EXPLANATION = "each start prints a new one in the server";

async function start(env: Record<string, string>): Promise<RunningServer> {
  const port = await findFreePort();
  const server = spawnServer(port, { NEXTAUTH_URL: `http://127.0.0.1:${port}`, DATA_DIR: freshDataDirectory(), ...env });
  started.push(server);
  return server;
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.stop()));
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

describe("start-up refuses a configuration it cannot run safely", () => {
  it("without NEXTAUTH_SECRET: exits and says which variable to set", async () => {
    const server = await start({});
    expect(await waitForExit(server)).not.toBe(0);
    expect(server.output()).toContain("NEXTAUTH_SECRET is not set");
  });

  it("with a short NEXTAUTH_SECRET: exits and says how long it must be", async () => {
    const server = await start({ NEXTAUTH_SECRET: "too-short" });
    expect(await waitForExit(server)).not.toBe(0);
    expect(server.output()).toContain("NEXTAUTH_SECRET is too short");
  });

  it("with an e-mail provider but no database adapter: exits with the reason", async () => {
    const server = await start({ NEXTAUTH_SECRET: SECRET, EMAIL_SERVER: "smtp://127.0.0.1:2525" });
    expect(await waitForExit(server)).not.toBe(0);
    expect(server.output()).toContain("EMAIL_SERVER is set, but next-auth's e-mail provider needs a database adapter");
  });
});

describe("first run: the one-time setup link", () => {
  it("creates the first admin once, then closes /setup", async () => {
    const server = await start({ NEXTAUTH_SECRET: SECRET });
    await waitUntilHealthy(server);
    const link = /(http:\/\/127\.0\.0\.1:\d+\/setup\?token=[\w-]+)/.exec(server.output())?.[1];
    expect(link).toBeDefined();
    const token = new URL(link ?? "").searchParams.get("token") ?? "";
    const client = new TestClient(server.url);

    // A missing or wrong token: a 404 that says where the current link is, not a bare "not found".
    const missing = await client.request("/setup");
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain(SETUP_LINK_EXPLANATION);
    const wrongLink = await client.request("/setup?token=wrong");
    expect(wrongLink.status).toBe(404);
    expect(await wrongLink.text()).toContain(SETUP_LINK_EXPLANATION);
    expect((await client.request(`/setup?token=${token}`)).status).toBe(200);

    const admin = { email: "owner@example.test", name: "Owner", password: "owner-password-1" };
    const wrong = await client.request("/api/setup", { body: { json: { token: "wrong", ...admin } } });
    expect(wrong.status).toBe(404);

    // Two tabs submitting the same link at once: exactly one admin.
    const [first, second] = await Promise.all([
      client.request("/api/setup", { body: { json: { token, ...admin } } }),
      client.request("/api/setup", { body: { json: { token, ...admin, email: "second@example.test" } } }),
    ]);
    expect([first.status, second.status].sort()).toEqual([201, 404]);

    // The used link: the same words as a link that never worked, so nobody learns which it was.
    const used = await client.request(`/setup?token=${token}`);
    expect(used.status).toBe(404);
    expect(await used.text()).toContain(SETUP_LINK_EXPLANATION);
    const again = await client.request("/api/setup", { body: { json: { token, ...admin, email: "third@example.test" } } });
    expect(again.status).toBe(404);

    const winner = first.status === 201 ? admin.email : "second@example.test";
    await client.signIn(winner, admin.password);
    expect(await client.session()).toMatchObject({ user: { email: winner, role: "admin" } });
  });

  it("ADMIN_EMAIL and ADMIN_PASSWORD create the admin without the page", async () => {
    const server = await start({ NEXTAUTH_SECRET: SECRET, ADMIN_EMAIL: "boot@example.test", ADMIN_PASSWORD: "boot-password-1" });
    await waitUntilHealthy(server);
    expect(server.output()).not.toContain("/setup?token=");
    const client = new TestClient(server.url);
    await client.signIn("boot@example.test", "boot-password-1");
    expect(await client.session()).toMatchObject({ user: { role: "admin" } });
  });
});

describe("stopping", () => {
  it("says it stopped on SIGTERM and exits 0, so a clean stop never looks like a crash", async () => {
    const server = await start({ NEXTAUTH_SECRET: SECRET, ADMIN_EMAIL: "stop@example.test", ADMIN_PASSWORD: "stop-password-1" });
    await waitUntilHealthy(server);
    server.process.kill("SIGTERM");
    expect(await waitForExit(server)).toBe(0);
    expect(server.output()).toContain("Stopping Contact Sheet (SIGTERM)");
    expect(server.output()).toContain("Contact Sheet stopped.");
  });
});

describe("without TRUST_PROXY, X-Forwarded-For cannot dodge the per-address limit", () => {
  it("counts failures by the real peer address", async () => {
    const server = await start({ NEXTAUTH_SECRET: SECRET, ADMIN_EMAIL: "peer@example.test", ADMIN_PASSWORD: "peer-password-1" });
    await waitUntilHealthy(server);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 21; attempt += 1) {
      // A new forged address and a new account each time.
      const client = new TestClient(server.url, `203.0.113.${attempt}`);
      statuses.push((await client.signIn(`someone-${attempt}@example.test`, "wrong-password")).status);
    }
    expect(statuses.slice(0, 20).every((status) => status === 401)).toBe(true);
    expect(statuses[20]).toBe(429);
  });
});
