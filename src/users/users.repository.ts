import type { DatabaseHandle } from "@/src/db/client";
import type { Role } from "@/src/access/roles";
import type { NewUserRow, UserRow, UserUpdate } from "@/src/db/database";

/** The row for a brand-new, active user with a fresh id. */
export function buildNewUser(user: { email: string; name: string; role: Role; passwordHash: string | null; now: string }): NewUserRow & { id: string } {
  return {
    id: crypto.randomUUID(),
    email: user.email,
    name: user.name,
    role: user.role,
    password_hash: user.passwordHash,
    disabled_at: null,
    session_version: 1,
    created_at: user.now,
    updated_at: user.now,
  };
}

export function findUserById(db: DatabaseHandle, id: string): Promise<UserRow | undefined> {
  return db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
}

export function findUserByEmail(db: DatabaseHandle, email: string): Promise<UserRow | undefined> {
  return db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst();
}

export function listUsers(db: DatabaseHandle): Promise<UserRow[]> {
  return db.selectFrom("users").selectAll().orderBy("created_at", "asc").orderBy("id", "asc").execute();
}

export async function insertUser(db: DatabaseHandle, user: NewUserRow): Promise<void> {
  await db.insertInto("users").values(user).execute();
}

export async function updateUser(db: DatabaseHandle, id: string, changes: UserUpdate): Promise<boolean> {
  const result = await db.updateTable("users").set(changes).where("id", "=", id).executeTakeFirst();
  return result.numUpdatedRows > BigInt(0);
}

/** Bumps the session version, so every token issued before now is refused. */
export async function incrementSessionVersion(db: DatabaseHandle, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable("users")
    .set((eb) => ({ session_version: eb("session_version", "+", 1), updated_at: now }))
    .where("id", "=", id)
    .executeTakeFirst();
  return result.numUpdatedRows > BigInt(0);
}

export async function deleteUser(db: DatabaseHandle, id: string): Promise<boolean> {
  const result = await db.deleteFrom("users").where("id", "=", id).executeTakeFirst();
  return result.numDeletedRows > BigInt(0);
}

export async function countActiveUsersWithRole(db: DatabaseHandle, role: Role): Promise<number> {
  const row = await db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<string | number>().as("count"))
    .where("role", "=", role)
    .where("disabled_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function countUsers(db: DatabaseHandle): Promise<number> {
  const row = await db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<string | number>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export function findUserIdByOAuthAccount(
  db: DatabaseHandle,
  provider: string,
  providerAccountId: string,
): Promise<{ user_id: string } | undefined> {
  return db
    .selectFrom("oauth_accounts")
    .select("user_id")
    .where("provider", "=", provider)
    .where("provider_account_id", "=", providerAccountId)
    .executeTakeFirst();
}

export async function insertOAuthAccount(
  db: DatabaseHandle,
  account: { provider: string; providerAccountId: string; userId: string; now: string },
): Promise<void> {
  await db
    .insertInto("oauth_accounts")
    .values({
      provider: account.provider,
      provider_account_id: account.providerAccountId,
      user_id: account.userId,
      created_at: account.now,
    })
    .execute();
}
