// The `contact-sheet` command (bin/contact-sheet.mjs starts this file). commander parses the
// arguments and writes every command's --help: it has no dependencies of its own, types its options,
// and is what most Node command-line tools use, so a contributor already knows it.
import { Command, CommanderError } from "commander";
import fs from "node:fs";
import { CLI_COMMANDS } from "./commands";
import { CommandFailure } from "./command-failure";

/** The installed version, read from package.json at run time (an import would pull it into the arrows). */
function packageVersion(): string {
  const packageJson = JSON.parse(fs.readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
  return packageJson.version;
}

function buildProgram(): Command {
  const program = new Command("contact-sheet")
    .description("Contact Sheet's command-line tool: move a library in and out, and look after a site.")
    .version(packageVersion())
    .showHelpAfterError()
    .exitOverride();
  for (const addCommand of CLI_COMMANDS) addCommand(program);
  return program;
}

async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv);
    return process.exitCode === undefined ? 0 : Number(process.exitCode);
  } catch (error) {
    // --help and --version end through here with exit code 0; usage errors were already explained.
    if (error instanceof CommanderError) return error.exitCode;
    if (error instanceof CommandFailure) {
      console.error(`contact-sheet: ${error.message}`);
      return error.exitCode;
    }
    console.error(`contact-sheet: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return 1;
  }
}

/**
 * Exits once what was written has left: stdout to a pipe is written asynchronously, and exiting at
 * once cut off the end of a long --json run (its summary line among it).
 */
function exitAfterOutput(code: number): void {
  process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
}

void main(process.argv).then(exitAfterOutput);
