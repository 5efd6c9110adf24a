import { spawn } from "node:child_process";
import path from "node:path";
import { inject } from "vitest";
import { TEST_SECRET } from "../setup/global-setup";

const BIN = path.resolve(import.meta.dirname, "../../bin/contact-sheet.mjs");

export interface CommandResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Both streams, for assertion messages. */
  output: string;
}

/** The environment `npm start` runs the shared test app with: the same database, data folder and storage. */
export function testAppEnvironment(): Record<string, string> {
  const storage = inject("storageConfig");
  const databaseUrl = inject("databaseUrl");
  return {
    NEXTAUTH_SECRET: TEST_SECRET,
    DATA_DIR: inject("dataDirectory"),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...(storage.kind === "s3"
      ? {
          STORAGE: "s3",
          S3_ENDPOINT: storage.endpoint,
          S3_REGION: storage.region,
          S3_BUCKET: storage.bucket,
          S3_ACCESS_KEY_ID: storage.accessKeyId,
          S3_SECRET_ACCESS_KEY: storage.secretAccessKey,
        }
      : {}),
  };
}

/**
 * Runs `contact-sheet <args>` as an operator would (bin/contact-sheet.mjs), with exactly `env` plus
 * PATH and HOME. `onStart` receives the child, e.g. to kill it part way; `killOn` SIGKILLs it as soon
 * as its output matches (a crash at a known step). The command runs in a process group of its own and
 * the kill takes the whole group: bin/contact-sheet.mjs starts the command as its child, which a kill
 * of the launcher alone would leave running to the end.
 */
export function runContactSheet(args: string[], env: Record<string, string>, onStart?: (pid: number) => void, killOn?: RegExp): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", NODE_ENV: "production", LOG_LEVEL: "warn", ...env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    const killGroup = () => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // Already gone.
      }
    };
    let stdout = "";
    let stderr = "";
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      output += chunk.toString();
      if (killOn?.test(stdout)) killGroup();
    });
    child.stderr.on("data", (chunk: Buffer) => ((stderr += chunk.toString()), (output += chunk.toString())));
    child.once("error", reject);
    child.once("close", (code, signal) => resolve({ code, signal, stdout, stderr, output }));
    if (child.pid && onStart) onStart(child.pid);
  });
}
