import type { DatabaseHandle } from "@/src/db/client";

export async function findSetting(db: DatabaseHandle, key: string): Promise<string | undefined> {
  const row = await db.selectFrom("settings").select("value").where("key", "=", key).executeTakeFirst();
  return row?.value;
}

export async function upsertSetting(db: DatabaseHandle, key: string, value: string): Promise<void> {
  await db
    .insertInto("settings")
    .values({ key, value })
    .onConflict((conflict) => conflict.column("key").doUpdateSet({ value }))
    .execute();
}

/** Deletes the setting only if it still holds `value`; answers whether this call deleted it. */
export async function deleteSettingIfValue(db: DatabaseHandle, key: string, value: string): Promise<boolean> {
  const result = await db.deleteFrom("settings").where("key", "=", key).where("value", "=", value).executeTakeFirst();
  return result.numDeletedRows > BigInt(0);
}

/** The values of these keys that are set, in one statement. */
export async function findSettings(db: DatabaseHandle, keys: readonly string[]): Promise<Map<string, string>> {
  const rows = await db.selectFrom("settings").select(["key", "value"]).where("key", "in", [...keys]).execute();
  return new Map(rows.map((row) => [row.key, row.value]));
}
