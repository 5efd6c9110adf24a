// Shared by the benchmarks: the built app on a fresh data folder, a signed-in HTTP client, and
// clean-up of everything a benchmark starts, also when it fails or is interrupted.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { AVIF_MAX_WIDTH, planVariantWidths } from "@/src/images/variant-plan";
import { findFreePort, type RunningServer, spawnServer, waitUntilHealthy } from "../../tests/helpers/server-process";

const ADMIN = { email: "bench-admin@example.test", password: "bench-admin-password-123" };

type CleanupStep = () => Promise<void> | void;
const cleanupSteps: CleanupStep[] = [];

/** Registers a step to run at the end, last registered first (like nested `finally` blocks). */
export function onCleanup(step: CleanupStep): void {
  cleanupSteps.push(step);
}

async function runCleanup(): Promise<void> {
  while (cleanupSteps.length > 0) {
    const step = cleanupSteps.pop();
    try {
      await step?.();
    } catch (error) {
      console.error("clean-up step failed:", error);
    }
  }
}

/**
 * Runs a benchmark, then cleans up whatever happens: success, failure, Ctrl-C or SIGTERM. With
 * `--help` it prints the benchmark's opening comment and runs nothing: by then every module the
 * benchmark imports has loaded, so this is also how tests check that a bench still starts.
 */
export function runBenchmark(main: () => Promise<void>): void {
  if (process.argv.includes("--help")) {
    console.log(describeScript(process.argv[1] ?? ""));
    return;
  }
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: cleaning up`);
      void runCleanup().finally(() => process.exit(130));
    });
  }
  main()
    .then(runCleanup, async (error: unknown) => {
      console.error(error instanceof Error ? error.stack ?? error.message : error);
      await runCleanup();
      process.exitCode = 1;
    })
    .finally(() => process.exit());
}

/** A script's opening comment lines, without their `//`: what it measures and how to run it. */
function describeScript(scriptPath: string): string {
  const lines = fs.readFileSync(scriptPath, "utf8").split("\n");
  const end = lines.findIndex((line) => !line.startsWith("//"));
  return lines.slice(0, end === -1 ? lines.length : end).map((line) => line.replace(/^\/\/ ?/, "")).join("\n");
}

export function makeTemporaryDirectory(prefix: string): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  onCleanup(() => fs.rmSync(directory, { recursive: true, force: true }));
  return directory;
}

export interface BenchApp {
  server: RunningServer;
  url: string;
  pid: number;
  dataDirectory: string;
}

/** `node server.mjs` over the last `next build`, on 127.0.0.1, SQLite and local storage in a fresh folder. */
export async function startBenchApp(env: Record<string, string> = {}): Promise<BenchApp> {
  if (!fs.existsSync(path.resolve(import.meta.dirname, "../../.next/BUILD_ID"))) {
    throw new Error("No build found: run `npx next build` first.");
  }
  const dataDirectory = makeTemporaryDirectory("contact-sheet-bench-");
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  const server = spawnServer(port, {
    NEXTAUTH_URL: url,
    NEXTAUTH_SECRET: "bench-secret-0123456789abcdef0123456789",
    DATA_DIR: dataDirectory,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    ...env,
  });
  // Registered after the folder, so it runs first: the server stops before its folder goes.
  onCleanup(() => server.stop());
  await waitUntilHealthy(server);
  if (!server.process.pid) throw new Error("The server has no process id");
  return { server, url, pid: server.process.pid, dataDirectory };
}

/** A cookie-keeping client that signs in the way the sign-in page does (next-auth credentials). */
export class BenchClient {
  private readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  private headersFor(method: string): Record<string, string> {
    const headers: Record<string, string> = {};
    if (this.cookies.size > 0) headers.Cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    // State-changing calls with a session cookie must come from the site's own origin.
    if (method !== "GET") headers.Origin = this.baseUrl;
    return headers;
  }

  async request(pathname: string, init: { method?: string; json?: unknown; form?: Record<string, string>; body?: FormData } = {}): Promise<Response> {
    const method = init.method ?? (init.json || init.form || init.body ? "POST" : "GET");
    const headers = this.headersFor(method);
    let body: string | FormData | undefined = init.body;
    if (init.json !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(init.json);
    } else if (init.form) {
      headers["Content-Type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(init.form).toString();
    }
    const response = await fetch(new URL(pathname, this.baseUrl), { method, headers, body, redirect: "manual" });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const separator = pair.indexOf("=");
      this.cookies.set(pair.slice(0, separator).trim(), pair.slice(separator + 1).trim());
    }
    return response;
  }

  /**
   * POSTs one file as a multipart body streamed from disk by node:http. The browser that uploads
   * is on another machine; here the client shares the server's two cores, so it should cost as
   * little as it can: fetch with a file Blob took about 3 CPU-s per 290 MB, this a fraction.
   */
  uploadFile(pathname: string, filePath: string, contentType: string): Promise<{ status: number; body: string }> {
    const boundary = `bench-${randomUUID()}`;
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${path.basename(filePath)}"\r\nContent-Type: ${contentType}\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const headers = {
      ...this.headersFor("POST"),
      "Content-Type": `multipart/form-data; boundary=${boundary}`,
      "Content-Length": String(head.length + fs.statSync(filePath).size + tail.length),
    };
    return new Promise((resolve, reject) => {
      const request = http.request(new URL(pathname, this.baseUrl), { method: "POST", headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
        response.on("error", reject);
      });
      request.on("error", reject);
      request.write(head);
      const file = fs.createReadStream(filePath);
      file.on("error", reject);
      file.on("end", () => request.end(tail));
      file.pipe(request, { end: false });
    });
  }

  async signIn(email: string, password: string): Promise<void> {
    const { csrfToken } = (await (await this.request("/api/auth/csrf")).json()) as { csrfToken: string };
    await this.request("/api/auth/callback/credentials", { form: { email, password, csrfToken, json: "true", callbackUrl: this.baseUrl } });
    if (!this.cookies.get("next-auth.session-token")) throw new Error(`Signing in as ${email} failed`);
  }
}

/** An editor created by the admin through the admin API, signed in. */
export async function signInAsNewEditor(app: BenchApp): Promise<BenchClient> {
  const admin = new BenchClient(app.url);
  await admin.signIn(ADMIN.email, ADMIN.password);
  const editor = { email: "bench-editor@example.test", name: "Bench Editor", role: "editor", password: "bench-editor-password-123" };
  const created = await admin.request("/api/admin/users", { json: editor });
  if (created.status !== 201) throw new Error(`Creating the editor failed: ${created.status} ${await created.text()}`);
  const client = new BenchClient(app.url);
  await client.signIn(editor.email, editor.password);
  return client;
}

export async function expectStatus(response: Response, status: number, what: string): Promise<void> {
  if (response.status !== status) throw new Error(`${what}: expected ${status}, got ${response.status} ${await response.text()}`);
}

/** CPU time a process has used so far (user + system, all threads), in seconds, from /proc. */
export function readProcessCpuSeconds(pid: number): number | null {
  try {
    // Fields after the command name (which may hold spaces) in /proc/<pid>/stat; utime and stime are the 12th and 13th.
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

// The kernel's USER_HZ, 100 on Linux.
const CLOCK_TICKS_PER_SECOND = 100;

/** Peak resident memory (VmHWM) and current (VmRSS) of a process, in bytes, from /proc. */
export function readProcessMemory(pid: number): { peak: number; current: number } | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kilobytes = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0) * 1024;
    return { peak: kilobytes("VmHWM"), current: kilobytes("VmRSS") };
  } catch {
    return null;
  }
}

export function formatMegabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
}

export function median(values: number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile. */
export function percentile(values: number[], rank: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((rank / 100) * sorted.length) - 1));
  return sorted[index];
}

export interface PhotoVariantBody {
  format: string;
  width: number;
  url: string;
}

export interface PhotoBody {
  id: string;
  status: string;
  width: number | null;
  variants: PhotoVariantBody[];
}

/**
 * Which of the three processing phases (src/images/variant-encoder.ts) have finished for a photo,
 * judged from the variants it lists against the plan for its width: `visible` is status ready,
 * `full` every JPEG and WebP width, `avif` every AVIF width.
 */
export function describePhases(photo: PhotoBody): { isVisible: boolean; isFull: boolean; isAvifDone: boolean } {
  const widths = photo.width ? planVariantWidths(photo.width) : [];
  const count = (format: string) => photo.variants.filter((variant) => variant.format === format).length;
  return {
    isVisible: photo.status === "ready",
    isFull: photo.status === "ready" && widths.length > 0 && count("jpeg") === widths.length && count("webp") === widths.length,
    isAvifDone: photo.status === "ready" && widths.length > 0 && count("avif") === widths.filter((width) => width <= AVIF_MAX_WIDTH).length,
  };
}
