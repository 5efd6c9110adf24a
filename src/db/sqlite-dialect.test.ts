import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { ImmediateTransactionSqliteDialect } from "./sqlite-dialect";

// Two connections to one file stand for two processes (an app instance and the worker).

interface Table {
  counters: { name: string; value: number };
}

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function openFile(file: string): SQLite.Database {
  const connection = new SQLite(file);
  connection.pragma("journal_mode = WAL");
  cleanups.push(() => connection.close());
  return connection;
}

/** A transaction that reads, lets the other process commit a write, then writes what it read. */
async function readThenWriteAfterAnotherCommit(dialectOf: (database: SQLite.Database) => SqliteDialect) {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "sqlite-dialect-"));
  cleanups.push(() => fs.rmSync(directory, { recursive: true, force: true }));
  const file = path.join(directory, "shared.sqlite");
  const other = openFile(file);
  other.exec("create table counters (name text primary key, value integer not null); insert into counters values ('a', 1), ('b', 1)");
  // The other process does not wait either: it answers at once whether it could write.
  other.pragma("busy_timeout = 0");
  const db = new Kysely<Table>({ dialect: dialectOf(openFile(file)) });
  let otherWrite: "written" | "busy" = "written";
  await db.transaction().execute(async (transaction) => {
    const { value } = await transaction.selectFrom("counters").select("value").where("name", "=", "a").executeTakeFirstOrThrow();
    try {
      other.exec("update counters set value = value + 1 where name = 'b'");
    } catch (error) {
      if ((error as { code?: string }).code !== "SQLITE_BUSY") throw error;
      otherWrite = "busy";
    }
    await transaction.updateTable("counters").set({ value: value + 1 }).where("name", "=", "a").execute();
  });
  return { otherWrite, rows: await db.selectFrom("counters").selectAll().orderBy("name").execute() };
}

describe("SQLite transactions shared with other processes", () => {
  it("fail at once with Kysely's deferred BEGIN when another process wrote between their read and their write", async () => {
    await expect(readThenWriteAfterAnotherCommit((database) => new SqliteDialect({ database }))).rejects.toMatchObject({ code: "SQLITE_BUSY_SNAPSHOT" });
  });

  it("hold the write lock from BEGIN IMMEDIATE, so the other process waits its turn instead and the transaction commits", async () => {
    const { otherWrite, rows } = await readThenWriteAfterAnotherCommit((database) => new ImmediateTransactionSqliteDialect({ database }));
    expect(otherWrite).toBe("busy");
    expect(rows).toEqual([
      { name: "a", value: 2 },
      { name: "b", value: 1 },
    ]);
  });
});
