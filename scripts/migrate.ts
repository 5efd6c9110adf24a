// npm run db:migrate – bring the database (SQLite under DATA_DIR, or DATABASE_URL) up to date.
import { closeDb, getDb } from "@/src/db/client";
import { describeSchemaUpgrade, upgradeSchema } from "@/src/db/schema-upgrade";

async function main(): Promise<void> {
  const upgrade = await upgradeSchema(getDb());
  console.log(describeSchemaUpgrade(upgrade));
  if (upgrade.applied.length > 0) console.log(`Applied: ${upgrade.applied.join(", ")}`);
  await closeDb();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
