import type { DatabaseHandle } from "@/src/db/client";
import type { Role } from "@/src/access/roles";
import type { ApiTokenRow, NewApiTokenRow } from "@/src/db/database";

/** A token found by its hash, with its owner's row as it is now. */
export interface ApiTokenWithOwner {
  id: string;
  scopes: string;
  expires_at: string | null;
  last_used_at: string | null;
  user_id: string;
  user_email: string;
  user_name: string;
  user_role: Role;
  user_disabled_at: string | null;
}

export async function insertApiToken(db: DatabaseHandle, token: NewApiTokenRow): Promise<void> {
  await db.insertInto("api_tokens").values(token).execute();
}

/** A user's tokens, newest first. */
export function listApiTokensByUser(db: DatabaseHandle, userId: string): Promise<ApiTokenRow[]> {
  return db
    .selectFrom("api_tokens")
    .selectAll()
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
}

export function findApiTokenOfUser(db: DatabaseHandle, id: string, userId: string): Promise<ApiTokenRow | undefined> {
  return db.selectFrom("api_tokens").selectAll().where("id", "=", id).where("user_id", "=", userId).executeTakeFirst();
}

export async function countApiTokensByUser(db: DatabaseHandle, userId: string): Promise<number> {
  const row = await db
    .selectFrom("api_tokens")
    .select((eb) => eb.fn.countAll<string | number>().as("count"))
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Deletes one of this user's tokens; false when the user has no token with that id. */
export async function deleteApiTokenOfUser(db: DatabaseHandle, id: string, userId: string): Promise<boolean> {
  const result = await db.deleteFrom("api_tokens").where("id", "=", id).where("user_id", "=", userId).executeTakeFirst();
  return result.numDeletedRows > BigInt(0);
}

/** The token with this secret hash and its owner, in one indexed lookup. */
export function findApiTokenWithOwnerByHash(db: DatabaseHandle, tokenHash: string): Promise<ApiTokenWithOwner | undefined> {
  return db
    .selectFrom("api_tokens")
    .innerJoin("users", "users.id", "api_tokens.user_id")
    .select([
      "api_tokens.id as id",
      "api_tokens.scopes as scopes",
      "api_tokens.expires_at as expires_at",
      "api_tokens.last_used_at as last_used_at",
      "users.id as user_id",
      "users.email as user_email",
      "users.name as user_name",
      "users.role as user_role",
      "users.disabled_at as user_disabled_at",
    ])
    .where("api_tokens.token_hash", "=", tokenHash)
    .executeTakeFirst();
}

/**
 * Writes the last-used time unless another request (or another instance) already wrote one
 * newer than the cutoff, so concurrent requests with one token rarely both write.
 */
export async function recordApiTokenUse(db: DatabaseHandle, id: string, now: string, cutoff: string): Promise<void> {
  await db
    .updateTable("api_tokens")
    .set({ last_used_at: now })
    .where("id", "=", id)
    .where((eb) => eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<=", cutoff)]))
    .execute();
}
