import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { finishDatabaseRestoreSwitch, finishRestoreSwitch, RESTORE_SWITCH_JOURNAL, RestoreSwitchError, type SwitchStep, writeSwitchJournal } from "./restore-switch";

// The SQLite restore's switch, stopped after every one of its renames (and after the last one,
// before the journal went): finishing it always ends with the restored database and media live and
// the replaced ones aside. The real kill is in tests/backup-restore.test.ts.

const folders: string[] = [];
afterEach(() => folders.splice(0).forEach((folder) => fs.rmSync(folder, { recursive: true, force: true })));

const STEPS: SwitchStep[] = [
  { from: "contact-sheet.sqlite", to: "replaced-1/contact-sheet.sqlite" },
  { from: "contact-sheet.sqlite-wal", to: "replaced-1/contact-sheet.sqlite-wal" },
  { from: "media", to: "replaced-1/media" },
  { from: "media.restoring", to: "media" },
  { from: "contact-sheet.sqlite.restoring", to: "contact-sheet.sqlite" },
];

/** A data folder just before the switch: live files saying "old", copies saying "new". */
function dataFolder(): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "cs-restore-switch-"));
  folders.push(folder);
  fs.writeFileSync(path.join(folder, "contact-sheet.sqlite"), "old");
  fs.writeFileSync(path.join(folder, "contact-sheet.sqlite-wal"), "old wal");
  fs.mkdirSync(path.join(folder, "media"));
  fs.writeFileSync(path.join(folder, "media", "a"), "old");
  fs.mkdirSync(path.join(folder, "media.restoring"));
  fs.writeFileSync(path.join(folder, "media.restoring", "a"), "new");
  fs.writeFileSync(path.join(folder, "contact-sheet.sqlite.restoring"), "new");
  return folder;
}

const read = (folder: string, relative: string) => fs.readFileSync(path.join(folder, relative), "utf8");

describe("the restore's switch journal", () => {
  for (let done = 0; done <= STEPS.length; done += 1) {
    it(`finishes a switch stopped after ${done} of its ${STEPS.length} renames`, () => {
      const folder = dataFolder();
      writeSwitchJournal(folder, STEPS);
      // The renames the killed restore made before it was stopped.
      for (const step of STEPS.slice(0, done)) {
        fs.mkdirSync(path.dirname(path.join(folder, step.to)), { recursive: true });
        fs.renameSync(path.join(folder, step.from), path.join(folder, step.to));
      }
      expect(finishRestoreSwitch(folder)).toHaveLength(STEPS.length - done);
      expect(read(folder, "contact-sheet.sqlite")).toBe("new");
      expect(read(folder, "media/a")).toBe("new");
      expect(read(folder, "replaced-1/contact-sheet.sqlite")).toBe("old");
      expect(read(folder, "replaced-1/contact-sheet.sqlite-wal")).toBe("old wal");
      expect(read(folder, "replaced-1/media/a")).toBe("old");
      expect(fs.readdirSync(folder).sort()).toEqual(["contact-sheet.sqlite", "media", "replaced-1"]);
    });
  }

  it("does nothing without a journal", () => {
    const folder = dataFolder();
    expect(finishRestoreSwitch(folder)).toBeNull();
    expect(read(folder, "contact-sheet.sqlite")).toBe("old");
  });

  it("stops, moving nothing more, when a step can be neither done nor found done", () => {
    const folder = dataFolder();
    writeSwitchJournal(folder, STEPS);
    fs.renameSync(path.join(folder, "contact-sheet.sqlite"), path.join(folder, "elsewhere"));
    expect(() => finishRestoreSwitch(folder)).toThrow(/neither contact-sheet\.sqlite nor replaced-1\/contact-sheet\.sqlite/);
    expect(fs.existsSync(path.join(folder, RESTORE_SWITCH_JOURNAL))).toBe(true);
    expect(read(folder, "media/a")).toBe("old");
  });

  it("refuses a journal naming a path outside the data folder", () => {
    const folder = dataFolder();
    expect(() => writeSwitchJournal(folder, [{ from: "media", to: "../media" }])).toThrow(RestoreSwitchError);
    fs.writeFileSync(path.join(folder, RESTORE_SWITCH_JOURNAL), JSON.stringify({ format: "contact-sheet-restore-switch", steps: [{ from: "../../etc/passwd", to: "x" }] }));
    expect(() => finishRestoreSwitch(folder)).toThrow(/outside the data folder/);
  });
});

// A PostgreSQL restore: its database renamed in one transaction on the server, then its media
// folder here. The journal's file renames are finished only when the live name has the restored
// copy's oid (the transaction committed); otherwise nothing was switched and the journal goes.
describe("a PostgreSQL restore's switch journal", () => {
  const MEDIA_STEPS: SwitchStep[] = [
    { from: "media", to: "replaced-1/media" },
    { from: "media.restoring", to: "media" },
  ];
  const DATABASE = { name: "site", restoredOid: 4242 };
  const liveOid = (oid: number | null) => async (name: string) => (name === "site" ? oid : null);

  for (let done = 0; done <= MEDIA_STEPS.length; done += 1) {
    it(`finishes the media switch stopped after ${done} of its renames once the database switch committed`, async () => {
      const folder = dataFolder();
      writeSwitchJournal(folder, MEDIA_STEPS, DATABASE);
      for (const step of MEDIA_STEPS.slice(0, done)) {
        fs.mkdirSync(path.dirname(path.join(folder, step.to)), { recursive: true });
        fs.renameSync(path.join(folder, step.from), path.join(folder, step.to));
      }
      expect(await finishDatabaseRestoreSwitch(folder, liveOid(4242))).toEqual({ finished: MEDIA_STEPS.slice(done) });
      expect(read(folder, "media/a")).toBe("new");
      expect(read(folder, "replaced-1/media/a")).toBe("old");
      expect(fs.existsSync(path.join(folder, RESTORE_SWITCH_JOURNAL))).toBe(false);
    });
  }

  for (const [what, oid] of [["another database", 17], ["no database", null]] as const) {
    it(`drops the journal, renaming nothing, when the live name has ${what} (the database switch never committed)`, async () => {
      const folder = dataFolder();
      writeSwitchJournal(folder, MEDIA_STEPS, DATABASE);
      expect(await finishDatabaseRestoreSwitch(folder, liveOid(oid))).toEqual({ abandoned: DATABASE });
      expect(read(folder, "media/a")).toBe("old");
      expect(read(folder, "media.restoring/a")).toBe("new");
      expect(fs.existsSync(path.join(folder, RESTORE_SWITCH_JOURNAL))).toBe(false);
    });
  }

  it("is never finished blind by the SQLite opener, which cannot ask the server", () => {
    const folder = dataFolder();
    writeSwitchJournal(folder, MEDIA_STEPS, DATABASE);
    expect(() => finishRestoreSwitch(folder)).toThrow(/PostgreSQL restore \(database site\)/);
    expect(read(folder, "media/a")).toBe("old");
    expect(fs.existsSync(path.join(folder, RESTORE_SWITCH_JOURNAL))).toBe(true);
  });
});
