// Shared by the benchmarks: a handle on a seeded database (scale-seed.ts) from outside the app, and
// the database's own plan of every query some work sends (EXPLAIN QUERY PLAN on SQLite; EXPLAIN
// ANALYZE on PostgreSQL), each with the query's time on its own.
import path from "node:path";
import SQLite from "better-sqlite3";
import { CompiledQuery, Kysely, type LogEvent, PostgresDialect, SqliteDialect } from "kysely";
import { Pool } from "pg";
import type { Database } from "@/src/db/database";
import { median } from "./bench-app";
import type { SeededDatabase } from "./scale-seed";

export function openSeededDatabase(seeded: SeededDatabase, log?: (event: LogEvent) => void): Kysely<Database> {
  if (seeded.kind === "postgres") return new Kysely<Database>({ dialect: new PostgresDialect({ pool: new Pool({ connectionString: seeded.databaseUrl, max: 2 }) }), log });
  const file = new SQLite(path.join(seeded.dataDirectory, "contact-sheet.sqlite"));
  file.pragma("busy_timeout = 5000");
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: file }), log });
}

/** Runs `work` on its own handle, then shows each query it sent with the database's plan and the query's own time. */
export async function explainQueries(seeded: SeededDatabase, work: (db: Kysely<Database>) => Promise<unknown>): Promise<string[]> {
  const captured: CompiledQuery[] = [];
  const db = openSeededDatabase(seeded, (event) => {
    if (event.level === "query") captured.push(event.query);
  });
  try {
    await work(db);
    const lines: string[] = [];
    for (const query of captured.splice(0)) {
      lines.push(`    ${query.sql}`);
      if (seeded.kind === "sqlite") {
        const plan = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${query.sql}`, [...query.parameters]));
        lines.push(...plan.rows.map((row) => `      ${row.detail}`));
      } else {
        const plan = await db.executeQuery<{ "QUERY PLAN": string }>(CompiledQuery.raw(`EXPLAIN (ANALYZE, BUFFERS OFF) ${query.sql}`, [...query.parameters]));
        lines.push(...plan.rows.map((row) => `      ${row["QUERY PLAN"]}`));
      }
      const times: number[] = [];
      for (let run = 0; run < 20; run += 1) {
        const startedAt = performance.now();
        await db.executeQuery(query);
        times.push(performance.now() - startedAt);
      }
      lines.push(`      the query alone: ${median(times).toFixed(2)} ms (median of 20)`);
    }
    return lines;
  } finally {
    await db.destroy();
  }
}
