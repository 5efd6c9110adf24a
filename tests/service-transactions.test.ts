// Services take the database handle first so that a caller can run several of them in one
// transaction (src/db/transaction.ts). On a freshly migrated database of its own (SQLite always,
// PostgreSQL when the run uses it): what two services write inside one transaction is kept or
// rolled back together, and a service handed the plain handle still opens its own transaction.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { SessionUser } from "@/src/access/viewer";
import type { DatabaseHandle } from "@/src/db/client";
import { getSiteSettings, updateSiteSettings } from "@/src/settings/site-settings.service";
import { createUser } from "@/src/users/users.service";
import { openFreshDatabase } from "./helpers/test-database";

const admin: SessionUser = { id: "transaction-test-admin", email: "admin@example.test", name: "Admin", role: "admin" };

let db: DatabaseHandle;
let remove: () => Promise<void>;
beforeAll(async () => {
  ({ db, remove } = await openFreshDatabase(inject("databaseKind")));
});
afterAll(() => remove());

async function countAuditEntries(action: string): Promise<number> {
  const rows = await db.selectFrom("audit_log").select("id").where("action", "=", action).execute();
  return rows.length;
}

describe("services in one transaction", () => {
  it("rolls back every service's writes together when a later step fails", async () => {
    const rollback = new Error("a later step failed");
    await expect(
      db.transaction().execute(async (transaction) => {
        await createUser(transaction, null, { email: "rolled-back@example.test", name: "Rolled back", role: "editor", password: "a long enough password" });
        await updateSiteSettings(transaction, admin, { allowDownloads: true });
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(await db.selectFrom("users").select("id").where("email", "=", "rolled-back@example.test").executeTakeFirst()).toBeUndefined();
    expect((await getSiteSettings(db)).allowDownloads).toBe(false);
    expect(await countAuditEntries("user.create")).toBe(0);
  });

  it("keeps them together when the transaction commits", async () => {
    await db.transaction().execute(async (transaction) => {
      await createUser(transaction, null, { email: "kept@example.test", name: "Kept", role: "editor", password: "a long enough password" });
      await updateSiteSettings(transaction, admin, { allowDownloads: true });
    });
    expect(await db.selectFrom("users").select("id").where("email", "=", "kept@example.test").executeTakeFirst()).toBeDefined();
    expect((await getSiteSettings(db)).allowDownloads).toBe(true);
  });

  it("opens its own transaction when handed the plain handle", async () => {
    const created = await createUser(db, null, { email: "alone@example.test", name: "Alone", role: "viewer", password: "a long enough password" });
    expect(created.email).toBe("alone@example.test");
    expect(await countAuditEntries("user.create")).toBe(2);
  });
});
