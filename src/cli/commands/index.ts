import type { Command } from "commander";
import { addBackupCommand } from "./backup";
import { addRestoreCommand } from "./restore";
import { addVerifyCommand } from "./verify";

/**
 * Every `contact-sheet` command, each added by its own module (`src/cli/commands/<name>.ts` exports
 * `add<Name>Command(program)`), in the order `--help` lists them.
 */
export const CLI_COMMANDS: ReadonlyArray<(program: Command) => void> = [addBackupCommand, addRestoreCommand, addVerifyCommand];
