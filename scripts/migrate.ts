// npm run db:migrate – bring the database (SQLite under DATA_DIR, or DATABASE_URL) up to date.
import { closeDb, getDb } from "@/src/db/client";
import { migrateToLatest } from "@/src/db/migrate";

async function main(): Promise<void> {
  const applied = await migrateToLatest(getDb());
  console.log(applied.length > 0 ? `Applied: ${applied.join(", ")}` : "The database is up to date.");
  await closeDb();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
