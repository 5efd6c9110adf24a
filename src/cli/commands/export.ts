// `contact-sheet export <dir>`: moves a library out through a running site's API, like import moves
// one in, so it runs from a laptop. The work is in src/cli/export/.
import { type Command, Option } from "commander";
import { CommandFailure } from "../command-failure";
import { concurrencyArgument, siteUrl } from "../site-options";
import { DEFAULT_EXPORT_CONCURRENCY, ExportDirectoryError, runExport, type ExportSummary } from "../export/run-export";
import { formatBytes, jsonReporter, lineReporter, terminalReporter } from "../import/import-report";
import { SiteApi, SiteApiError } from "../import/site-api";

interface ExportCommandOptions {
  url?: string;
  token?: string;
  all?: boolean;
  concurrency: number;
  json?: boolean;
}

function summaryText(summary: ExportSummary): string {
  return `exported ${summary.exported}, ${summary.unchanged} already there, ${summary.failed} failed (${formatBytes(summary.bytes)} of originals), ${summary.albums} album${summary.albums === 1 ? "" : "s"}, ${summary.shares} share link${summary.shares === 1 ? "" : "s"}`;
}

export function addExportCommand(program: Command): void {
  program
    .command("export")
    .description("Copy your photos out of a site: originals untouched, JSON and XMP sidecars, albums, tags, share links and a manifest")
    .argument("<dir>", "the folder to export into (made when missing; a rerun there skips what is already exported)")
    .addOption(new Option("--url <url>", "the site's address").env("CONTACT_SHEET_URL"))
    .addOption(new Option("--token <token>", "an API token with the photos:read scope").env("CONTACT_SHEET_TOKEN"))
    .option("--all", "every user's library (an admin's token only); each photo's sidecar names its owner by e-mail")
    .option("--concurrency <n>", "originals fetched at once", concurrencyArgument, DEFAULT_EXPORT_CONCURRENCY)
    .option("--json", "one JSON line per photo and a summary line, for scripts")
    .addHelpText(
      "after",
      "\nPhotos are grouped by date: photos/<year>/<month>/<name>, each with <name>.xmp and <name>.contact-sheet.json beside it.\n" +
        "Albums (nesting, order, covers) are in albums.json; `contact-sheet import <dir>` into another site brings it all back.\n\n" +
        "Examples:\n  CONTACT_SHEET_URL=https://photos.example.com CONTACT_SHEET_TOKEN=cs_... contact-sheet export ~/contact-sheet-export\n\n" +
        "Exit code 0 only when every photo was exported.",
    )
    .action(async (directory: string, options: ExportCommandOptions) => {
      const url = siteUrl(options.url);
      if (!options.token) throw new CommandFailure("Give an API token with the photos:read scope: --token cs_... (or set CONTACT_SHEET_TOKEN). Make one under Account › API tokens.", 2);
      const reporter = options.json ? jsonReporter() : process.stderr.isTTY ? terminalReporter() : lineReporter(process.stdout, { everyFile: false });
      try {
        const summary = await runExport({ directory, api: new SiteApi(url, options.token), all: options.all === true, concurrency: options.concurrency, reporter });
        if (options.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
        else reporter.note(summaryText(summary));
        if (summary.failed > 0) {
          reporter.note(`${summary.failed} photo${summary.failed === 1 ? "" : "s"} could not be exported (named above); run the same command again to retry them.`);
          process.exitCode = 1;
        }
      } catch (error) {
        // Nothing could be done at all (the folder refused, the token refused, the site away): one sentence, no trace.
        if (error instanceof SiteApiError || error instanceof ExportDirectoryError) throw new CommandFailure(error.message);
        throw error;
      }
    });
}
