// bench:scale – the built app (server.mjs) on a seeded database and data folder, with the event-loop
// monitor preloaded, and session cookies for its seeded users.
import fs from "node:fs";
import path from "node:path";
import { findFreePort, spawnServer, waitUntilHealthy } from "../../tests/helpers/server-process";
import { onCleanup } from "./bench-app";
import type { BenchUser, SeededDatabase } from "./scale-seed";

const LOOP_MONITOR = path.resolve(import.meta.dirname, "scale-loop-monitor.cjs");

export interface ScaleApp {
  url: string;
  pid: number;
  /** Where the loop monitor writes when signalled. */
  loopFile: string;
  output: () => string;
  stop: () => Promise<void>;
}

export async function startScaleApp(seeded: SeededDatabase): Promise<ScaleApp> {
  if (!fs.existsSync(path.resolve(import.meta.dirname, "../../.next/BUILD_ID"))) {
    throw new Error("No build found: run `npx next build` first.");
  }
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  const loopFile = path.join(seeded.dataDirectory, "loop-delay.json");
  const server = spawnServer(port, {
    NEXTAUTH_URL: url,
    NEXTAUTH_SECRET: "bench-secret-0123456789abcdef0123456789",
    DATA_DIR: seeded.dataDirectory,
    ...(seeded.databaseUrl ? { DATABASE_URL: seeded.databaseUrl } : {}),
    LOG_LEVEL: "warn",
    NODE_OPTIONS: `--require ${LOOP_MONITOR}`,
    SCALE_LOOP_MONITOR_FILE: loopFile,
  });
  onCleanup(() => server.stop());
  await waitUntilHealthy(server, 120_000);
  if (!server.process.pid) throw new Error("The server has no process id");
  return { url, pid: server.process.pid, loopFile, output: server.output, stop: server.stop };
}

/** Signs in the way the sign-in page does (next-auth credentials) and answers the Cookie header. */
export async function signIn(app: ScaleApp, user: BenchUser): Promise<string> {
  const cookies = new Map<string, string>();
  const keep = (response: Response) => {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const separator = pair.indexOf("=");
      cookies.set(pair.slice(0, separator).trim(), pair.slice(separator + 1).trim());
    }
  };
  const header = () => [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  const csrf = await fetch(`${app.url}/api/auth/csrf`);
  keep(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const form = new URLSearchParams({ email: user.email, password: user.password, csrfToken, json: "true", callbackUrl: app.url });
  const answer = await fetch(`${app.url}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { Cookie: header(), Origin: app.url, "Content-Type": "application/x-www-form-urlencoded" },
    body: form.toString(),
    redirect: "manual",
  });
  keep(answer);
  if (!cookies.get("next-auth.session-token")) throw new Error(`Signing in as ${user.email} failed: ${answer.status}`);
  cookies.delete("next-auth.csrf-token");
  cookies.delete("next-auth.callback-url");
  return `next-auth.session-token=${cookies.get("next-auth.session-token")}`;
}
