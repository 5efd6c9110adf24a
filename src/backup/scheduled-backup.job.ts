import "server-only";
import { spawn } from "node:child_process";
import path from "node:path";
import { getEnv } from "@/src/config/env";
import { getDb } from "@/src/db/client";
import type { RecurringJob } from "@/src/jobs/recurring-jobs";
import { getLogger } from "@/src/log/logger";
import { recordBackupStatus } from "./backup-status";

export const SCHEDULED_BACKUP_JOB = "backup.scheduled";

/**
 * The scheduled backup, once per BACKUP_EVERY_HOURS across every instance, when BACKUP_DIR is set.
 * It runs `contact-sheet backup` as a child process rather than in this one: better-sqlite3 is
 * synchronous, so a snapshot taken here would stop the server answering for as long as it takes.
 * The command records its own outcome for the dashboard; a child that dies without doing so (killed,
 * out of memory) is recorded here.
 */
export const scheduledBackupJob: RecurringJob = {
  kind: SCHEDULED_BACKUP_JOB,
  get everyMs() {
    return getEnv().BACKUP_EVERY_HOURS * 60 * 60 * 1000;
  },
  run: async () => {
    const env = getEnv();
    if (!env.BACKUP_DIR) return;
    const outcome = await runBackupCommand(["backup", path.resolve(env.BACKUP_DIR), "--keep", String(env.BACKUP_KEEP), "--scheduled"]);
    if (outcome.code === 0) return;
    const reason = outcome.lastLine || `contact-sheet backup ended with ${outcome.signal ?? `exit code ${outcome.code}`}`;
    if (outcome.signal) await recordBackupStatus(getDb(), { finishedAt: new Date().toISOString(), ok: false, trigger: "scheduled", detail: reason });
    getLogger().error({ reason }, "the scheduled backup failed");
    throw new Error(`The scheduled backup failed: ${reason}`);
  },
};

function runBackupCommand(args: string[]): Promise<{ code: number | null; signal: NodeJS.Signals | null; lastLine: string }> {
  return new Promise((resolve, reject) => {
    // The server runs from the project folder (npm start), where the command's bin and tsconfig are.
    const child = spawn(process.execPath, [path.join(process.cwd(), "bin", "contact-sheet.mjs"), ...args], {
      cwd: process.cwd(),
      env: process.env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    child.once("error", reject);
    child.once("exit", (code, signal) => resolve({ code, signal, lastLine: stderr.trim().split("\n").at(-1) ?? "" }));
  });
}
