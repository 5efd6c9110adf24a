// `contact-sheet reprocess [--failed | --all | <id>...]`: processes photos again from their stored
// originals (src/photos/reprocess.service.ts), then follows them until the worker has finished —
// the site's own worker, or `npm run worker`: this command only queues and watches the database.
// `contact-sheet reprocess --places` names the places of photos with coordinates and none (the
// worker's daily backfill, src/photos/place-backfill.job.ts) now, in this process: it reads no
// originals, only coordinates, so there is nothing to hand the worker.
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
  places?: boolean;
  wait: boolean;
}

function selectionOf(ids: string[], options: ReprocessOptions): ReprocessSelection | "places" {
  const chosen = [options.failed, options.all, options.places, ids.length > 0].filter(Boolean).length;
  if (chosen !== 1) throw new CommandFailure("Say which photos: --failed, --all, --places, or their ids (one of the four).", 2);
  if (options.places) return "places";
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
    .option("--places", "name the places of photos with coordinates but no place (processed before places existed), now; places set by hand are kept")
    .option("--no-wait", "queue the work and end, without following it")
    .addHelpText("after", "\nThe site's worker (or npm run worker) does the work; this command queues it and shows its progress.\nExit code 1 when a photo still fails.")
    .action(async (ids: string[], options: ReprocessOptions) => {
      const selection = selectionOf(ids, options);
      if (selection === "places") return namePlaces();
      const { reprocess, withServerDatabase, COMMAND_LINE_ACTOR } = await loadServer();
      await withServerDatabase(async (db) => {
        const queued = await reprocess.queueReprocessing(db, COMMAND_LINE_ACTOR, selection);
        for (const { id, reason } of queued.skipped) console.log(`skipped ${id}: ${reason}`);
        console.log(`Queued ${queued.photoIds.length} photo${queued.photoIds.length === 1 ? "" : "s"}: ${queued.retried} failed ones processed again, ${queued.rendered} ready ones' sizes made anew.`);
        if (queued.motionClips > 0) console.log(`Their motion clips' playable copies made anew: ${queued.motionClips}.`);
        if (queued.motionClipsCutAgain > 0) console.log(`Of those, motion photos whose clip is cut out of the original again first: ${queued.motionClipsCutAgain}.`);
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

/** `reprocess --places`: the backfill of places, run here and now, with a line per batch. */
async function namePlaces(): Promise<void> {
  const { placeBackfill, withServerDatabase } = await loadServer();
  await withServerDatabase(async (db) => {
    const result = await placeBackfill.backfillPlaces(db, {
      onBatch: (progress) => console.log(`places: ${progress.looked} photos looked at, ${progress.named} named`),
    });
    const left = result.looked - result.named;
    console.log(
      `Named the places of ${result.named} photo${result.named === 1 ? "" : "s"}${left > 0 ? `; ${left} with coordinates that name no place (such as 0,0) left as they are` : ""}.`,
    );
  });
}
