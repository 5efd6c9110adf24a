import { type ChildProcess, spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");

export interface RunningServer {
  url: string;
  process: ChildProcess;
  /** Everything the server printed so far (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
}

export async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** Spawns the production server (server.mjs over the last `next build`) with exactly this env. */
export function spawnServer(port: number, env: Record<string, string>): RunningServer {
  let output = "";
  const child = spawn(process.execPath, [path.join(ROOT, "server.mjs")], {
    cwd: ROOT,
    // Only what the test gives, so nothing from the developer's shell leaks into a test server.
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return {
    url: `http://127.0.0.1:${port}`,
    process: child,
    output: () => output,
    stop: () => stopProcess(child),
  };
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
  await exited;
  clearTimeout(timer);
}

/** Waits until the server answers /api/health, or throws with its output when it exits first. */
export async function waitUntilHealthy(server: RunningServer, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.process.exitCode !== null) {
      throw new Error(`The server exited with ${server.process.exitCode}:\n${server.output()}`);
    }
    try {
      const response = await fetch(`${server.url}/api/health`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`The server did not become healthy in time:\n${server.output()}`);
}

/** Waits for the process to end by itself and answers its exit code. */
export async function waitForExit(server: RunningServer, timeoutMs = 30_000): Promise<number | null> {
  if (server.process.exitCode !== null) return server.process.exitCode;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Still running after ${timeoutMs} ms:\n${server.output()}`)), timeoutMs);
    server.process.once("exit", (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

/** Kills the server as the kernel would (no shutdown of its own) and waits until it is gone. */
export async function killWithSigkill(server: RunningServer): Promise<void> {
  server.process.kill("SIGKILL");
  await waitForExit(server);
}
