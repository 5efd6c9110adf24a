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
 * PATH and HOME. `onStart` receives the child, e.g. to kill it part way.
 */
export function runContactSheet(args: string[], env: Record<string, string>, onStart?: (pid: number) => void): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", NODE_ENV: "production", LOG_LEVEL: "warn", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => ((stdout += chunk.toString()), (output += chunk.toString())));
    child.stderr.on("data", (chunk: Buffer) => ((stderr += chunk.toString()), (output += chunk.toString())));
    child.once("error", reject);
    child.once("exit", (code, signal) => resolve({ code, signal, stdout, stderr, output }));
    if (child.pid && onStart) onStart(child.pid);
  });
}
