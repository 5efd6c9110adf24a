import "server-only";
import { insertAuditEntry } from "@/src/audit/audit.repository";
import type { DatabaseHandle } from "@/src/db/client";
import { inTransaction } from "@/src/db/transaction";
import type { ApiTokenRow } from "@/src/db/database";
import { AppError } from "@/src/errors/app-error";
import { SCOPE_MINIMUM_ROLE } from "@/src/access/scopes";
import { formatStoredScopes, parseStoredScopes } from "./api-token-scopes";
import { generateApiTokenSecret, hashApiTokenSecret, toApiTokenHint } from "./api-token-secret";
import { isApiTokenExpired, toExpiresAt } from "./api-token-validity";
import type { CreateApiTokenInput, PublicApiToken } from "./api-tokens.schemas";
import {
  countApiTokensByUser,
  deleteApiTokenOfUser,
  findApiTokenOfUser,
  insertApiToken,
  listApiTokensByUser,
} from "./api-tokens.repository";
import { hasRole } from "@/src/access/roles";
import type { SessionUser } from "@/src/access/viewer";

/** Enough for every script a person runs; a bound keeps one account from filling the table. */
export const MAXIMUM_TOKENS_PER_USER = 50;

function toPublicApiToken(row: ApiTokenRow, now: Date): PublicApiToken {
  return {
    id: row.id,
    name: row.name,
    scopes: parseStoredScopes(row.scopes),
    hint: row.token_hint,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    expiresAt: row.expires_at,
    isExpired: isApiTokenExpired(row.expires_at, now),
  };
}

/** The caller's own tokens, newest first. Nobody, admins included, lists another user's tokens. */
export async function listApiTokensOfUser(db: DatabaseHandle, actor: SessionUser): Promise<PublicApiToken[]> {
  const now = new Date();
  return (await listApiTokensByUser(db, actor.id)).map((row) => toPublicApiToken(row, now));
}

/**
 * Makes a token for the caller and answers its secret, the only time it is ever available. A
 * scope the caller's role could not use is refused now rather than left to fail on every call.
 */
export async function createApiTokenForUser(
  db: DatabaseHandle,
  actor: SessionUser,
  input: CreateApiTokenInput,
): Promise<{ token: PublicApiToken; secret: string }> {
  const tooPowerful = input.scopes.find((scope) => !hasRole(actor.role, SCOPE_MINIMUM_ROLE[scope]));
  if (tooPowerful) {
    throw new AppError("FORBIDDEN", `Your role cannot make a token with the ${tooPowerful} scope.`);
  }
  const now = new Date();
  const secret = generateApiTokenSecret();
  const row: ApiTokenRow = {
    id: crypto.randomUUID(),
    user_id: actor.id,
    name: input.name,
    token_hash: hashApiTokenSecret(secret),
    token_hint: toApiTokenHint(secret),
    scopes: formatStoredScopes(input.scopes),
    created_at: now.toISOString(),
    last_used_at: null,
    expires_at: toExpiresAt(now, input.expiresInDays),
  };
  await inTransaction(db, async (transaction) => {
    // Counted inside the transaction so two concurrent creations rarely both slip past the bound.
    if ((await countApiTokensByUser(transaction, actor.id)) >= MAXIMUM_TOKENS_PER_USER) {
      throw new AppError("CONFLICT", `You already have ${MAXIMUM_TOKENS_PER_USER} tokens. Revoke one first.`);
    }
    await insertApiToken(transaction, row);
    await insertAuditEntry(
      transaction,
      { actorId: actor.id, action: "api-token.create", targetId: row.id, details: { after: { name: row.name, scopes: row.scopes } } },
      row.created_at,
    );
  });
  return { token: toPublicApiToken(row, now), secret };
}

/** Revokes one of the caller's tokens: it stops working on the next request. Others' ids: 404. */
export async function revokeApiTokenOfUser(db: DatabaseHandle, actor: SessionUser, id: string): Promise<void> {
  const now = new Date().toISOString();
  await inTransaction(db, async (transaction) => {
    const token = await findApiTokenOfUser(transaction, id, actor.id);
    if (!token || !(await deleteApiTokenOfUser(transaction, id, actor.id))) {
      throw new AppError("NOT_FOUND", "You have no token with that id.");
    }
    await insertAuditEntry(
      transaction,
      { actorId: actor.id, action: "api-token.revoke", targetId: id, details: { before: { name: token.name } } },
      now,
    );
  });
}
