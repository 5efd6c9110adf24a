import "server-only";
import { insertAuditEntry } from "@/src/audit/audit.repository";
import { getEnv } from "@/src/config/env";
import type { DatabaseHandle } from "@/src/db/client";
import { inTransaction } from "@/src/db/transaction";
import { isUniqueViolation } from "@/src/db/errors";
import { buildNewUser, findUserByEmail, findUserById, findUserIdByOAuthAccount, insertOAuthAccount, insertUser } from "./users.repository";
import { withoutControlCharacters } from "@/src/validation/input-text";
import { emailSchema, MAXIMUM_NAME_LENGTH } from "./users.schemas";

export interface OAuthIdentity {
  provider: string;
  providerAccountId: string;
  email: string | null;
  isEmailVerified: boolean;
  name: string | null;
}

/** next-auth's error codes, shown on the auth error page. */
export type OAuthSignInRefusal = "OAuthAccountNotLinked" | "AccessDenied";

/**
 * Finds or links the account for an OAuth sign-in. An identity already linked signs in its user.
 * A new identity is linked to the user with the same e-mail only when the provider verified that
 * e-mail; otherwise it is refused as not linked, so nobody takes over an account by registering its
 * address elsewhere. Unknown e-mails get a viewer account only when OAUTH_ALLOW_SIGNUP is on.
 */
export async function resolveOAuthSignIn(db: DatabaseHandle, identity: OAuthIdentity): Promise<{ userId: string } | { refusal: OAuthSignInRefusal }> {
  const linked = await findUserIdByOAuthAccount(db, identity.provider, identity.providerAccountId);
  if (linked) {
    const user = await findUserById(db, linked.user_id);
    return user && user.disabled_at === null ? { userId: user.id } : { refusal: "AccessDenied" };
  }
  // Providers' profiles are outside input: the same rules as for accounts an admin creates.
  const parsedEmail = emailSchema.safeParse(identity.email ?? "");
  if (!parsedEmail.success) return { refusal: "AccessDenied" };
  const email = parsedEmail.data;

  const now = new Date().toISOString();
  const existing = await findUserByEmail(db, email);
  if (existing) {
    if (!identity.isEmailVerified) return { refusal: "OAuthAccountNotLinked" };
    if (existing.disabled_at !== null) return { refusal: "AccessDenied" };
    await linkAccount(db, identity, existing.id, now);
    return { userId: existing.id };
  }
  if (!getEnv().OAUTH_ALLOW_SIGNUP || !identity.isEmailVerified) return { refusal: "AccessDenied" };

  const user = buildNewUser({ email, name: toDisplayName(identity.name, email), role: "viewer", passwordHash: null, now });
  const userId = user.id;
  try {
    await inTransaction(db, async (transaction) => {
      await insertUser(transaction, user);
      await insertOAuthAccount(transaction, { ...identity, userId, now });
      await insertAuditEntry(transaction, { actorId: userId, action: "user.oauth-signup", targetId: userId, details: { provider: identity.provider } }, now);
    });
  } catch (error) {
    // Two first sign-ins at once: the other one created the account.
    if (isUniqueViolation(error)) return resolveOAuthSignIn(db, identity);
    throw error;
  }
  return { userId };
}

/** The provider's name, cleaned; the e-mail address when that leaves nothing. */
function toDisplayName(name: string | null, email: string): string {
  return withoutControlCharacters(name ?? "").slice(0, MAXIMUM_NAME_LENGTH).trim() || email.slice(0, MAXIMUM_NAME_LENGTH);
}

async function linkAccount(db: DatabaseHandle, identity: OAuthIdentity, userId: string, now: string): Promise<void> {
  try {
    await inTransaction(db, async (transaction) => {
      await insertOAuthAccount(transaction, { ...identity, userId, now });
      await insertAuditEntry(transaction, { actorId: userId, action: "user.oauth-link", targetId: userId, details: { provider: identity.provider } }, now);
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
}

/** The user id an already-resolved OAuth identity belongs to. */
export async function findOAuthUserId(db: DatabaseHandle, provider: string, providerAccountId: string): Promise<string | undefined> {
  return (await findUserIdByOAuthAccount(db, provider, providerAccountId))?.user_id;
}
