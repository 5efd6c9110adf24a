// `contact-sheet reprocess [--failed | --all | <id>...]`: processes photos again from their stored
// originals (src/photos/reprocess.service.ts), then follows them until the worker has finished —
// the site's own worker, or `npm run worker`: this command only queues and watches the database.
import { type Command } from "commander";
import { SingleBar } from "cli-progress";
import type { ReprocessSelection } from "@/src/photos/reprocess.service";
import { CommandFailure } from "../command-failure";
import { loadServer } from "../load-server";

const POLL_INTERVAL_MS = 1000;
/** Without a tty, a progress line this often. */
const LINE_INTERVAL_MS = 10_000;

interface ReprocessOptions {
  failed?: boolean;
  all?: boolean;
  wait: boolean;
}

function selectionOf(ids: string[], options: ReprocessOptions): ReprocessSelection {
  const chosen = [options.failed, options.all, ids.length > 0].filter(Boolean).length;
  if (chosen !== 1) throw new CommandFailure("Say which photos: --failed, --all, or their ids (one of the three).", 2);
  if (options.failed) return { kind: "failed" };
  if (options.all) return { kind: "all" };
  return { kind: "ids", ids };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function addReprocessCommand(program: Command): void {
  program
    .command("reprocess")
    .description("Process photos again from their originals: failed ones from scratch, ready ones' sizes made anew (on the server)")
    .argument("[id...]", "the photos, by id")
    .option("--failed", "every photo whose processing failed")
    .option("--all", "every photo outside the trash")
    .option("--no-wait", "queue the work and end, without following it")
    .addHelpText("after", "\nThe site's worker (or npm run worker) does the work; this command queues it and shows its progress.\nExit code 1 when a photo still fails.")
    .action(async (ids: string[], options: ReprocessOptions) => {
      const selection = selectionOf(ids, options);
      const { reprocess, withServerDatabase, COMMAND_LINE_ACTOR } = await loadServer();
      await withServerDatabase(async (db) => {
        const queued = await reprocess.queueReprocessing(db, COMMAND_LINE_ACTOR, selection);
        for (const { id, reason } of queued.skipped) console.log(`skipped ${id}: ${reason}`);
        console.log(`Queued ${queued.photoIds.length} photo${queued.photoIds.length === 1 ? "" : "s"}: ${queued.retried} failed ones processed again, ${queued.rendered} ready ones' sizes made anew.`);
        if (queued.skipped.length > 0 && selection.kind === "ids") process.exitCode = 1;
        if (!options.wait || queued.photoIds.length === 0) return;

        const total = queued.photoIds.length;
        const bar = process.stdout.isTTY ? new SingleBar({ format: "processing [{bar}] {value}/{total} photos | {failed} failed | ETA {eta_formatted}", hideCursor: true }) : null;
        bar?.start(total, 0, { failed: 0 });
        let lastLine = Date.now();
        for (;;) {
          const progress = await reprocess.reprocessProgress(db, queued.photoIds);
          const finished = progress.done + progress.failed;
          bar?.update(finished, { failed: progress.failed });
          if (!bar && (Date.now() - lastLine >= LINE_INTERVAL_MS || progress.waiting === 0)) {
            console.log(`processing: ${finished}/${total} done, ${progress.failed} failed, ${progress.waiting} waiting`);
            lastLine = Date.now();
          }
          if (progress.waiting === 0) {
            bar?.stop();
            if (progress.failed > 0) {
              console.log(`${progress.failed} photo${progress.failed === 1 ? "" : "s"} failed again; the processing queue on /admin says why.`);
              process.exitCode = 1;
            }
            return;
          }
          await sleep(POLL_INTERVAL_MS);
        }
      });
    });
}
