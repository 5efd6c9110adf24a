// `contact-sheet import <path>...`: moves a library in through a running site's API, like any
// client, so it works from a laptop against a server. The work is in src/cli/import/.
import { type Command, Option } from "commander";
import { VISIBILITIES, type Visibility } from "@/src/db/database";
import { ExportFolderError, readExportAlbums } from "../import/export-albums";
import { readExportShares } from "../import/export-shares";
import { createNeighbourReader } from "../import/neighbour-reader";
import { CommandFailure } from "../command-failure";
import { concurrencyArgument, siteUrl } from "../site-options";
import type { AlbumMode } from "../import/album-folders";
import { defaultStatePath, ImportStateError } from "../import/import-state";
import { jsonReporter, lineReporter, terminalReporter } from "../import/import-report";
import { runImport } from "../import/run-import";
import { SiteApi, SiteApiError } from "../import/site-api";

interface ImportCommandOptions {
  url?: string;
  token?: string;
  state?: string;
  dryRun?: boolean;
  albums?: "folders";
  album?: string;
  visibility?: Visibility;
  tag: string[];
  concurrency: number;
  json?: boolean;
  owner?: string;
}

export function addImportCommand(program: Command): void {
  program
    .command("import")
    .description("Upload photos from folders and .zip files to a site, only the ones it does not have yet")
    .argument("<path...>", "files, folders (walked recursively) and .zip files (read in place)")
    .addOption(new Option("--url <url>", "the site's address").env("CONTACT_SHEET_URL"))
    .addOption(new Option("--token <token>", "an API token with the upload scope (albums, tags and an export's share links also need photos:read and photos:write)").env("CONTACT_SHEET_TOKEN"))
    .option("--state <file>", `where to remember what was imported (default ${defaultStatePath()})`)
    .option("--dry-run", "print the plan (new files, duplicates, skipped, albums to create, bytes to send) and change nothing")
    .addOption(new Option("--albums <mode>", "folders: nested albums from the folder tree (existing ones reused); in a Google Takeout, one album per album folder, titled from its metadata.json (year folders make none)").choices(["folders"]).conflicts("album"))
    .option("--album <title>", "put every photo into this album (made if missing)")
    .addOption(new Option("--visibility <visibility>", "the visibility of the photos this run uploads").choices([...VISIBILITIES]))
    .option("--tag <name>", "a tag for the photos this run uploads (repeat for more)", (value: string, previous: string[]) => [...previous, value], [] as string[])
    .option("--concurrency <n>", "files uploaded at once", concurrencyArgument, 3)
    .option("--json", "one JSON line per file and a summary line, for scripts")
    .option("--owner <email>", "from a folder `contact-sheet export --all` wrote: only the photos of this owner (their sidecars name them)")
    .addHelpText(
      "after",
      "\nExamples:\n  CONTACT_SHEET_URL=https://photos.example.com CONTACT_SHEET_TOKEN=cs_... contact-sheet import ~/Pictures --albums folders\n  contact-sheet import takeout-001.zip takeout-002.zip --dry-run\n  contact-sheet import ./my-export   (a folder contact-sheet export wrote: its sidecars, albums and share links come back too)\n\nExit code 0 only when no file failed.",
    )
    .action(async (paths: string[], options: ImportCommandOptions) => {
      const url = siteUrl(options.url);
      if (!options.token) throw new CommandFailure("Give an API token with the upload scope: --token cs_... (or set CONTACT_SHEET_TOKEN). Make one under Account › API tokens.", 2);
      const albums: AlbumMode = options.albums === "folders" ? { kind: "folders" } : options.album ? { kind: "one", title: options.album } : { kind: "none" };
      const reporter = options.json ? jsonReporter() : process.stderr.isTTY ? terminalReporter() : lineReporter();
      try {
        // A folder `contact-sheet export` wrote brings its albums (nesting, order, covers) in albums.json.
        const owner = options.owner?.toLowerCase();
        const ownedBy = (item: { ownerEmail: string }) => owner === undefined || item.ownerEmail.toLowerCase() === owner;
        const exportAlbums = readExportAlbums(paths).filter(ownedBy);
        // Its share links (new keys; one that asked for a password comes back locked until a new one is set).
        const exportShares = readExportShares(paths).filter(ownedBy);
        const neighbours = createNeighbourReader((problem) => reporter.note(problem));
        const summary = await runImport({
          paths,
          api: new SiteApi(url, options.token),
          statePath: options.state ?? defaultStatePath(),
          dryRun: options.dryRun === true,
          albums,
          visibility: options.visibility ?? null,
          tags: options.tag,
          concurrency: options.concurrency,
          reporter,
          readMetadata: (source) => neighbours.readMetadata(source),
          readAlbumTitle: (source) => neighbours.albumTitle(source),
          exportAlbums,
          exportShares,
          ownerEmail: options.owner,
        });
        if (summary.failed > 0) process.exitCode = 1;
      } catch (error) {
        // Nothing could be done at all (the token refused, the site away): one sentence, no trace.
        if (error instanceof SiteApiError || error instanceof ImportStateError || error instanceof ExportFolderError) throw new CommandFailure(error.message);
        throw error;
      }
    });
}
