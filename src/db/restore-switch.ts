// The last step of a SQLite restore (src/backup/restore.service.ts) is a switch by renames in the
// data folder: the live database (and its -wal, -shm) and media folder move aside, then the verified
// copies take their place. A kill between two renames would leave a data folder without a database,
// which the next start would quietly replace with a new empty one. So the switch is written down
// first, as a journal (restore-switch.json, written whole and synced before any rename), and every
// step is a rename that can be told done or not done from what is on disk. Whoever opens the data
// folder next (the site starting, a server command, the next restore) finishes the journal before
// anything else: the copies it names were verified before it was written, so going forward is
// always right, and no state in between is ever opened.
//
// A PostgreSQL restore switches its database by renames inside the server, in one transaction, and
// only then its media folder (local disk) by renames here. Its journal also names the database
// switch (`database`: the live name and the restored copy's oid, which a rename keeps): the media
// renames are finished only once that transaction is seen to have committed (the live name has the
// copy's oid); killed before it committed, nothing was switched and the journal is dropped. Either
// way the database and the media folder that are live belong together.
import fs from "node:fs";
import path from "node:path";

export const RESTORE_SWITCH_JOURNAL = "restore-switch.json";
const JOURNAL_FORMAT = "contact-sheet-restore-switch";

/** One rename, both names relative to the data folder ("/" between folders). */
export interface SwitchStep {
  from: string;
  to: string;
}

/** A PostgreSQL restore's database switch, which the file renames follow. */
export interface DatabaseSwitch {
  /** The live database's name. */
  name: string;
  /** The restored copy's oid: the live name has it once the rename transaction committed. */
  restoredOid: number;
}

interface SwitchJournal {
  steps: SwitchStep[];
  database?: DatabaseSwitch;
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
export function writeSwitchJournal(dataDirectory: string, steps: readonly SwitchStep[], database?: DatabaseSwitch): void {
  for (const step of steps) {
    resolveInside(dataDirectory, step.from);
    resolveInside(dataDirectory, step.to);
  }
  const journal = path.join(dataDirectory, RESTORE_SWITCH_JOURNAL);
  const temporary = `${journal}.partial`;
  const handle = fs.openSync(temporary, "w");
  try {
    fs.writeFileSync(handle, `${JSON.stringify({ format: JOURNAL_FORMAT, steps, ...(database ? { database } : {}) }, null, 2)}\n`);
    fs.fsyncSync(handle);
  } finally {
    fs.closeSync(handle);
  }
  fs.renameSync(temporary, journal);
  syncFolder(dataDirectory);
}

function readJournal(journal: string): SwitchJournal {
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(journal, "utf8"));
  } catch {
    throw new RestoreSwitchError(`${journal} is not readable JSON: a restore was stopped while switching and its record is damaged. Look at the data folder by hand.`);
  }
  const value = json as { format?: unknown; steps?: unknown; database?: unknown };
  const database = value?.database as DatabaseSwitch | undefined;
  const valid =
    value?.format === JOURNAL_FORMAT &&
    Array.isArray(value.steps) &&
    value.steps.every((step: unknown) => typeof (step as SwitchStep)?.from === "string" && typeof (step as SwitchStep)?.to === "string") &&
    (database === undefined || (typeof database?.name === "string" && Number.isInteger(database?.restoredOid)));
  if (!valid) throw new RestoreSwitchError(`${journal} is not a restore's switch record. Look at the data folder by hand.`);
  return { steps: value.steps as SwitchStep[], ...(database ? { database: { name: database.name, restoredOid: database.restoredOid } } : {}) };
}

type AfterStep = (step: SwitchStep, index: number, count: number) => void;

/**
 * Does what is left of the switch the journal names, then removes the journal; `afterStep` is called
 * after each rename it makes (the restore prints its progress there). Answers the steps it made, or
 * null when there was no journal. Throws RestoreSwitchError, renaming nothing more, when a step can
 * be neither done nor found done (both names there, or neither), and for a PostgreSQL restore's
 * journal, which only finishDatabaseRestoreSwitch can tell done from not begun.
 */
export function finishRestoreSwitch(dataDirectory: string, afterStep?: AfterStep): SwitchStep[] | null {
  const journal = path.join(dataDirectory, RESTORE_SWITCH_JOURNAL);
  if (!fs.existsSync(journal)) return null;
  const { steps, database } = readJournal(journal);
  if (database) {
    throw new RestoreSwitchError(`${journal} is the record of a PostgreSQL restore (database ${database.name}): start the site with that DATABASE_URL to finish it.`);
  }
  return applySteps(dataDirectory, journal, steps, afterStep);
}

export type DatabaseSwitchOutcome = { finished: SwitchStep[] } | { abandoned: DatabaseSwitch };

/**
 * The same for a PostgreSQL restore: `liveOidOf(name)` answers the oid of the database now called
 * `name` (null when there is none). When it is the restored copy's, the rename transaction committed
 * and the file renames are finished (`finished`: the renames made here); otherwise it never
 * committed, nothing was switched, and the journal is dropped without a rename (`abandoned`). A
 * journal without a database switch (a SQLite restore's) is finished as finishRestoreSwitch would.
 */
export async function finishDatabaseRestoreSwitch(
  dataDirectory: string,
  liveOidOf: (name: string) => Promise<number | null>,
  afterStep?: AfterStep,
): Promise<DatabaseSwitchOutcome | null> {
  const journal = path.join(dataDirectory, RESTORE_SWITCH_JOURNAL);
  if (!fs.existsSync(journal)) return null;
  const { steps, database } = readJournal(journal);
  if (database && (await liveOidOf(database.name)) !== database.restoredOid) {
    fs.rmSync(journal);
    syncFolder(dataDirectory);
    return { abandoned: database };
  }
  return { finished: applySteps(dataDirectory, journal, steps, afterStep) };
}

function applySteps(dataDirectory: string, journal: string, steps: SwitchStep[], afterStep?: AfterStep): SwitchStep[] {
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
