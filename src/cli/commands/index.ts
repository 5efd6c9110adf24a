import type { Command } from "commander";
import { addBackupCommand } from "./backup";
import { addExportCommand } from "./export";
import { addImportCommand } from "./import";
import { addReprocessCommand } from "./reprocess";
import { addRestoreCommand } from "./restore";
import { addUsersCommand } from "./users";
import { addVerifyCommand } from "./verify";

/**
 * Every `contact-sheet` command, each added by its own module (`src/cli/commands/<name>.ts` exports
 * `add<Name>Command(program)`), in the order `--help` lists them.
 */
export const CLI_COMMANDS: ReadonlyArray<(program: Command) => void> = [
  addImportCommand,
  addExportCommand,
  addUsersCommand,
  addReprocessCommand,
  addBackupCommand,
  addRestoreCommand,
  addVerifyCommand,
];
