import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { corpusFile } from "./helpers/photos";
import { findFreePort, type RunningServer, spawnServer, waitForExit, waitUntilHealthy } from "./helpers/server-process";
import { TestClient } from "./helpers/test-client";
import { createUploadPath } from "./helpers/tus";

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
    // The port opens only once boot is done, so a balancer never sends a request that would wait for it.
    const [migrated, listening] = ["Database created at schema", "is listening on"].map((line) => server.output().indexOf(line));
    expect(migrated).toBeGreaterThan(-1);
    expect(listening).toBeGreaterThan(migrated);
    const client = new TestClient(server.url);
    await client.signIn("boot@example.test", "boot-password-1");
    expect(await client.session()).toMatchObject({ user: { role: "admin" } });
  });
});

/**
 * A tus PATCH that sends the first `split` bytes and holds the request open until `finish` sends
 * the rest; answers the status and Upload-Offset. `agent` keeps its connection for a next request.
 */
function slowPatch(client: TestClient, uploadPath: string, bytes: Uint8Array, split: number, agent?: http.Agent) {
  let answered: (value: { status: number; offset: string | undefined }) => void = () => {};
  let failed: (error: Error) => void = () => {};
  const answer = new Promise<{ status: number; offset: string | undefined }>((resolve, reject) => {
    answered = resolve;
    failed = reject;
    setTimeout(() => reject(new Error("The PATCH got no answer")), 15_000).unref();
  });
  const request = http.request(new URL(uploadPath, client.baseUrl), {
    method: "PATCH",
    agent,
    headers: {
      "Tus-Resumable": "1.0.0",
      "Upload-Offset": "0",
      "Content-Type": "application/offset+octet-stream",
      "Content-Length": String(bytes.length),
      Cookie: [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; "),
      Origin: client.baseUrl,
    },
  });
  request.on("error", (error) => failed(error));
  request.on("response", (response) => {
    response.resume();
    response.on("end", () => answered({ status: response.statusCode ?? 0, offset: response.headers["upload-offset"] as string | undefined }));
  });
  const started = new Promise<void>((resolve) => request.write(bytes.subarray(0, split), () => resolve()));
  return { started, answer, finish: () => request.end(bytes.subarray(split)) };
}

function getOn(agent: http.Agent, url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString()));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      })
      .on("error", reject);
  });
}

describe("stopping", () => {
  it("on SIGTERM lets uploads' chunks in flight finish, answers readiness 503 'shutting down' meanwhile, exits 0 and says it stopped", async () => {
    const graceSeconds = 5;
    const server = await start({ NEXTAUTH_SECRET: SECRET, ADMIN_EMAIL: "stop@example.test", ADMIN_PASSWORD: "stop-password-1", SHUTDOWN_GRACE_SECONDS: String(graceSeconds) });
    await waitUntilHealthy(server);
    // Without METRICS_TOKEN there is no /metrics at all, whatever is sent.
    expect((await fetch(`${server.url}/metrics`, { headers: { Authorization: "Bearer some-token-0123456789" } })).status).toBe(404);

    const client = new TestClient(server.url);
    await client.signIn("stop@example.test", "stop-password-1");
    const photo = corpusFile("exif-samples/jpg/Canon_40D.jpg");
    const other = corpusFile("exif-samples/jpg/Nikon_D70.jpg");
    const [first, second] = [await createUploadPath(client, photo.length, "first.jpg"), await createUploadPath(client, other.length, "second.jpg")];
    const keptAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const held = slowPatch(client, first, photo, 1000);
    const onKeptConnection = slowPatch(client, second, other, 1000, keptAlive);
    await Promise.all([held.started, onKeptConnection.started]);
    // Both requests have reached the route (the server is reading their bodies).
    await new Promise((resolve) => setTimeout(resolve, 200));

    const signalledAt = Date.now();
    server.process.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.process.exitCode).toBeNull();

    onKeptConnection.finish();
    // 200: the chunk completed the upload, and the answer names the photo it made.
    expect(await onKeptConnection.answer).toEqual({ status: 200, offset: String(other.length) });
    // That connection was kept: the next request on it is answered, and readiness says why it is 503.
    const ready = await getOn(keptAlive, `${server.url}/api/health/ready`);
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.body)).toMatchObject({ status: "shutting down", error: { code: "SERVICE_UNAVAILABLE", message: "Shutting down." } });
    // New connections are no longer taken.
    await expect(fetch(`${server.url}/api/health`)).rejects.toThrow();

    held.finish();
    expect(await held.answer).toEqual({ status: 200, offset: String(photo.length) });
    expect(await waitForExit(server, (graceSeconds + 10) * 1000)).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan((graceSeconds + 5) * 1000);
    expect(server.output()).toContain("Stopping Contact Sheet (SIGTERM)");
    expect(server.output()).toContain("Contact Sheet stopped.");
    keptAlive.destroy();
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
