import "server-only";
import { getDb } from "@/src/db/client";
import { AppError } from "@/src/errors/app-error";
import { getLogger } from "@/src/log/logger";
import { getApiTokenRetryAfter, recordFailedApiToken } from "./api-token-limiter";
import type { ApiTokenScope } from "@/src/access/scopes";
import { parseStoredScopes } from "./api-token-scopes";
import { hashApiTokenSecret, isWellFormedApiTokenSecret } from "./api-token-secret";
import { isApiTokenExpired, shouldRecordApiTokenUse, toLastUsedCutoff } from "./api-token-validity";
import { findApiTokenWithOwnerByHash, recordApiTokenUse } from "./api-tokens.repository";
import type { BearerAuthorization } from "./bearer-authorization";
import type { SessionUser } from "@/src/access/viewer";

/** The token a request was authenticated with, for recording its use once the request is allowed. */
export interface ApiTokenCredential {
  id: string;
  lastUsedAt: string | null;
}

const INVALID_TOKEN_CHALLENGE = { "WWW-Authenticate": 'Bearer realm="contact-sheet", error="invalid_token"' };

function invalidToken(): AppError {
  // One answer for malformed, unknown, revoked, expired and disabled alike: nothing to learn from it.
  return new AppError("UNAUTHENTICATED", "The API token is invalid, expired or revoked.", INVALID_TOKEN_CHALLENGE);
}

/**
 * Authenticates a Bearer request: the token must exist, be unexpired, belong to an active user and
 * carry `scope`. The user (and so the role the route checks next) is read from the database on
 * every request. Failed lookups count against the caller's address and are throttled with 429.
 */
export async function authenticateApiToken(
  authorization: Exclude<BearerAuthorization, { kind: "absent" }>,
  scope: ApiTokenScope,
  clientAddress: string,
): Promise<{ user: SessionUser; credential: ApiTokenCredential }> {
  const retryAfterSeconds = await getApiTokenRetryAfter(clientAddress);
  if (retryAfterSeconds > 0) {
    throw new AppError("RATE_LIMITED", "Too many failed API token attempts. Try again later.", {
      "Retry-After": String(retryAfterSeconds),
    });
  }
  const secret = authorization.kind === "bearer" ? authorization.credentials : "";
  const row = isWellFormedApiTokenSecret(secret) ? await findApiTokenWithOwnerByHash(getDb(), hashApiTokenSecret(secret)) : undefined;
  if (!row || isApiTokenExpired(row.expires_at, new Date())) {
    await recordFailedApiToken(clientAddress);
    throw invalidToken();
  }
  if (row.user_disabled_at !== null) throw invalidToken();
  if (!parseStoredScopes(row.scopes).includes(scope)) {
    throw new AppError("FORBIDDEN", `This API token does not have the ${scope} scope.`, {
      "WWW-Authenticate": `Bearer realm="contact-sheet", error="insufficient_scope", scope="${scope}"`,
    });
  }
  return {
    user: { id: row.user_id, email: row.user_email, name: row.user_name, role: row.user_role },
    credential: { id: row.id, lastUsedAt: row.last_used_at },
  };
}

/**
 * Notes that the token was used, at most about once a minute (see LAST_USED_RESOLUTION_MS). A
 * failure here is logged, not answered: bookkeeping must never fail the caller's upload.
 */
export async function noteApiTokenUse(credential: ApiTokenCredential): Promise<void> {
  const now = new Date();
  if (!shouldRecordApiTokenUse(credential.lastUsedAt, now)) return;
  try {
    await recordApiTokenUse(getDb(), credential.id, now.toISOString(), toLastUsedCutoff(now));
  } catch (error) {
    getLogger().warn({ err: error, tokenId: credential.id }, "could not record API token use");
  }
}
