import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");

export interface RunningScript {
  process: ChildProcess;
  /** Everything the script printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the exit code once the script has ended by itself; rejects after `timeoutMs`. */
  exited(timeoutMs?: number): Promise<number | null>;
  /** Ends it with SIGTERM (SIGKILL after 5 s) and waits until it is gone. */
  stop(): Promise<void>;
}

/**
 * Starts `npm run <script>` from package.json as an operator would, with exactly this env (plus PATH
 * and HOME), so a test sees what `npm run worker` or `npm run db:migrate` does outside Next.js.
 */
export function startNpmScript(script: string, args: string[], env: Record<string, string>): RunningScript {
  let output = "";
  const child: ChildProcess = spawn("npm", ["run", "--silent", script, ...(args.length > 0 ? ["--", ...args] : [])], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", NODE_ENV: "production", LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, so stop() reaches the node process npm started, not only npm.
    detached: true,
  });
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  // "close", not "exit": npm can exit before the pipes are drained, and the node process npm started
  // writes its last lines ("Worker stopped.") to the same pipes just before it ends.
  const ended = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  const exited = (timeoutMs = 60_000) =>
    new Promise<number | null>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm run ${script} still running after ${timeoutMs} ms:\n${output}`)), timeoutMs);
      void ended.then((code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, signal);
    } catch {
      // Already gone.
    }
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      signalGroup("SIGTERM");
      const timer = setTimeout(() => signalGroup("SIGKILL"), 5000);
      await ended;
      clearTimeout(timer);
    }
  };
  return { process: child, output: () => output, exited, stop };
}
