import type { DatabaseHandle } from "./client";
import { upgradeSchema } from "./schema-upgrade";

/**
 * Brings the schema up to date and answers the migrations it ran. Safe to run from several
 * processes at once: Kysely takes a lock. Refuses a database a newer version has upgraded
 * (src/db/schema-upgrade.ts).
 */
export async function migrateToLatest(db: DatabaseHandle): Promise<string[]> {
  return (await upgradeSchema(db)).applied;
}
