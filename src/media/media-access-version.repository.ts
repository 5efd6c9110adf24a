import type { DatabaseHandle } from "@/src/db/client";

/** The current version of what may be served publicly (see access-version-gate.ts). */
export async function readMediaAccessVersion(db: DatabaseHandle): Promise<number> {
  const row = await db.selectFrom("media_access_version").select("version").where("id", "=", 1).executeTakeFirstOrThrow();
  return Number(row.version);
}

/**
 * Moves the version on: every instance drops its cached public media before its next answer. Call
 * it in the transaction that withdraws the media, or after that has committed, never before.
 */
export async function bumpMediaAccessVersion(db: DatabaseHandle): Promise<void> {
  await db
    .updateTable("media_access_version")
    .set((eb) => ({ version: eb("version", "+", 1) }))
    .where("id", "=", 1)
    .execute();
}
