// The last step of a SQLite restore (src/backup/restore.service.ts) is a switch by renames in the
// data folder: the live database (and its -wal, -shm) and media folder move aside, then the verified
// copies take their place. A kill between two renames would leave a data folder without a database,
// which the next start would quietly replace with a new empty one. So the switch is written down
// first, as a journal (restore-switch.json, written whole and synced before any rename), and every
// step is a rename that can be told done or not done from what is on disk. Whoever opens the data
// folder next (the site starting, a server command, the next restore) finishes the journal before
// anything else: the copies it names were verified before it was written, so going forward is
// always right, and no state in between is ever opened.
import fs from "node:fs";
import path from "node:path";

export const RESTORE_SWITCH_JOURNAL = "restore-switch.json";
const JOURNAL_FORMAT = "contact-sheet-restore-switch";

/** One rename, both names relative to the data folder ("/" between folders). */
export interface SwitchStep {
  from: string;
  to: string;
}

export class RestoreSwitchError extends Error {}

function resolveInside(dataDirectory: string, relative: string): string {
  const resolved = path.resolve(dataDirectory, ...relative.split("/"));
  // The journal is a file anyone with the folder could edit: it renames only inside the data folder.
  if (path.relative(dataDirectory, resolved).startsWith("..") || path.isAbsolute(path.relative(dataDirectory, resolved))) {
    throw new RestoreSwitchError(`${RESTORE_SWITCH_JOURNAL} names ${JSON.stringify(relative)}, outside the data folder; refusing it.`);
  }
  return resolved;
}

/** fsync of a folder, so its renames survive a power cut too (a kill alone does not need it). */
function syncFolder(folder: string): void {
  const handle = fs.openSync(folder, "r");
  try {
    fs.fsyncSync(handle);
  } finally {
    fs.closeSync(handle);
  }
}

/** Writes the journal whole (to a temporary name, synced, then renamed): it exists complete or not at all. */
export function writeSwitchJournal(dataDirectory: string, steps: readonly SwitchStep[]): void {
  for (const step of steps) {
    resolveInside(dataDirectory, step.from);
    resolveInside(dataDirectory, step.to);
  }
  const journal = path.join(dataDirectory, RESTORE_SWITCH_JOURNAL);
  const temporary = `${journal}.partial`;
  const handle = fs.openSync(temporary, "w");
  try {
    fs.writeFileSync(handle, `${JSON.stringify({ format: JOURNAL_FORMAT, steps }, null, 2)}\n`);
    fs.fsyncSync(handle);
  } finally {
    fs.closeSync(handle);
  }
  fs.renameSync(temporary, journal);
  syncFolder(dataDirectory);
}

function readJournal(journal: string): SwitchStep[] {
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(journal, "utf8"));
  } catch {
    throw new RestoreSwitchError(`${journal} is not readable JSON: a restore was stopped while switching and its record is damaged. Look at the data folder by hand.`);
  }
  const value = json as { format?: unknown; steps?: unknown };
  const valid =
    value?.format === JOURNAL_FORMAT &&
    Array.isArray(value.steps) &&
    value.steps.every((step: unknown) => typeof (step as SwitchStep)?.from === "string" && typeof (step as SwitchStep)?.to === "string");
  if (!valid) throw new RestoreSwitchError(`${journal} is not a restore's switch record. Look at the data folder by hand.`);
  return value.steps as SwitchStep[];
}

/**
 * Does what is left of the switch the journal names, then removes the journal; `afterStep` is called
 * after each rename it makes (the restore prints its progress there). Answers the steps it made, or
 * null when there was no journal. Throws RestoreSwitchError, renaming nothing more, when a step can
 * be neither done nor found done (both names there, or neither).
 */
export function finishRestoreSwitch(dataDirectory: string, afterStep?: (step: SwitchStep, index: number, count: number) => void): SwitchStep[] | null {
  const journal = path.join(dataDirectory, RESTORE_SWITCH_JOURNAL);
  if (!fs.existsSync(journal)) return null;
  const steps = readJournal(journal);
  const made: SwitchStep[] = [];
  for (const [index, step] of steps.entries()) {
    const from = resolveInside(dataDirectory, step.from);
    const to = resolveInside(dataDirectory, step.to);
    const fromThere = fs.existsSync(from);
    const toThere = fs.existsSync(to);
    if (!fromThere && toThere) continue;
    // Its name filled again by a later step that is done (the live database moved aside, then the copy renamed in): done.
    const refilled = steps.slice(index + 1).some((later) => later.to === step.from && !fs.existsSync(resolveInside(dataDirectory, later.from)));
    if (fromThere && toThere && refilled) continue;
    if (fromThere && toThere) throw new RestoreSwitchError(`A restore stopped while switching cannot go on: both ${step.from} and ${step.to} are in ${dataDirectory}. Nothing more was moved; move one aside by hand, then start again.`);
    if (!fromThere) throw new RestoreSwitchError(`A restore stopped while switching cannot go on: neither ${step.from} nor ${step.to} is in ${dataDirectory}. Nothing more was moved.`);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.renameSync(from, to);
    made.push(step);
    afterStep?.(step, index, steps.length);
  }
  syncFolder(dataDirectory);
  fs.rmSync(journal);
  return made;
}
