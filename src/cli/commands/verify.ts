import path from "node:path";
import type { Command } from "commander";
import type { LibraryProblem } from "@/src/photos/library-verification.service";
import { formatByteSize } from "@/src/photos/byte-size";
import { loadServer } from "../load-server";

interface VerifyOptions {
  repair?: boolean;
  orphanAgeMinutes: string;
}

/** One line a person reads for each problem. */
export function describeProblem(problem: LibraryProblem): string {
  switch (problem.kind) {
    case "missing-original":
      return `missing original: photo ${problem.photoId} (${problem.key})`;
    case "original-mismatch":
      return `original changed: photo ${problem.photoId} (${problem.key}) has SHA-256 ${problem.actual}, its row says ${problem.expected}`;
    case "missing-variants":
      return problem.keys.length === 0
        ? `missing variants: photo ${problem.photoId} is ready but has none`
        : `missing variants: photo ${problem.photoId} lacks ${problem.keys.join(", ")}`;
    case "orphan-file":
      return `orphan file: ${problem.key} (${problem.size} bytes) belongs to no photo`;
  }
}

/**
 * `contact-sheet verify [--repair]`: does storage hold exactly what the database says? Exit code 1
 * when anything is wrong (with --repair: when anything is left that a repair may not fix).
 */
export function addVerifyCommand(program: Command): void {
  program
    .command("verify")
    .description("Check that every photo has its original (matching its SHA-256) and variants, and every stored file belongs to a photo.")
    .option("--repair", "queue missing variants to be made again and move orphan files to DATA_DIR/quarantine (never deletes an original)")
    .option("--orphan-age-minutes <minutes>", "judge only stored files at least this old (younger ones may be uploads still committing)", "60")
    .action(async (options: VerifyOptions) => {
      const orphanAgeMinutes = Number(options.orphanAgeMinutes);
      if (!Number.isFinite(orphanAgeMinutes) || orphanAgeMinutes < 0) {
        console.error("contact-sheet: --orphan-age-minutes must be a number of minutes, 0 or more.");
        process.exitCode = 2;
        return;
      }
      const { openServerDatabase, closeServerDatabase, verification } = await loadServer();
      const { repairLibrary, verifyLibrary } = verification;
      const { db, env } = await openServerDatabase();
      try {
        console.log(`Verifying the library (${env.STORAGE === "s3" ? `S3 bucket ${env.S3_BUCKET}` : `local disk under ${env.dataDirectory}`})…`);
        const result = await verifyLibrary(db, {
          orphanMinimumAgeMs: orphanAgeMinutes * 60_000,
          onProgress: (checked) => console.log(`  ${checked} photos checked`),
        });
        console.log(`Checked ${result.photos} photos (${formatByteSize(result.originalBytes)} of originals) and ${result.variants} variants.`);
        for (const problem of result.problems) console.log(describeProblem(problem));
        if (result.problems.length === 0) {
          console.log("Everything is in order.");
          return;
        }
        console.log(`${result.problems.length} problem${result.problems.length === 1 ? "" : "s"} found.`);
        if (!options.repair) {
          process.exitCode = 1;
          return;
        }
        const quarantine = path.join(env.dataDirectory, "quarantine", new Date().toISOString().replace(/[:.]/g, "-"));
        const repair = await repairLibrary(db, result.problems, quarantine);
        for (const photoId of repair.rendersQueued) console.log(`repaired: photo ${photoId}'s variants are queued to be made again`);
        for (const moved of repair.quarantined) console.log(`repaired: ${moved.key} moved to ${moved.path}`);
        for (const problem of repair.left) console.log(`not repaired (an original is never rewritten or deleted): ${describeProblem(problem)}`);
        if (repair.left.length > 0) process.exitCode = 1;
      } finally {
        await closeServerDatabase();
      }
    });
}
