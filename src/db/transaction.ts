import type { Transaction } from "kysely";
import type { DatabaseHandle } from "./client";
import type { Database } from "./database";

/**
 * Runs `work` in a transaction: a new one, or the caller's when `db` already is one. This is what
 * lets services take the database handle first and still compose: a route, a job or the CLI can
 * open one transaction and run "album + photos + audit entry" through several services inside it.
 */
export function inTransaction<T>(db: DatabaseHandle, work: (transaction: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db as Transaction<Database>) : db.transaction().execute(work);
}
