import type { Kysely } from "kysely";
import { inject } from "vitest";
import type { Database } from "@/src/db/database";
import { openTestDatabase } from "./test-database";

// For test files only (it asks vitest for the run's settings); benches use test-database.ts.

/** Runs `work` with a handle on the test server's database, closed afterwards. */
export async function withServerDatabase<T>(work: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  const db = openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
  try {
    return await work(db);
  } finally {
    await db.destroy();
  }
}
