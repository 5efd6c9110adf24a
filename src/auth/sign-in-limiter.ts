import "server-only";
import { createHmac } from "node:crypto";
import { getEnv } from "@/src/config/env";
import { getDb } from "@/src/db/client";
import { normalizeEmail } from "@/src/users/normalize-email";
import { deleteRateLimitCounter } from "./rate-limits.repository";
import { giveBackRateLimitSlot, type RateLimitRule, takeRateLimitSlots } from "./rate-limiter";

interface SignInRules {
  byAddress: RateLimitRule;
  byAccountAndAddress: RateLimitRule;
  byAccount: RateLimitRule;
}

/**
 * The account part of a key: a keyed hash of the e-mail as normalised, so the table holds no
 * address (nor a password typed into the e-mail field) that a database reader could use.
 */
function toAccountKey(email: string): string {
  return createHmac("sha256", getEnv().NEXTAUTH_SECRET).update(`signin-account:${normalizeEmail(email)}`).digest("base64url");
}

/**
 * Failures are counted three ways. Per (account, address) with the low limit: the guesser slows
 * down, and nobody else is locked out by it. Per address: one address cannot try many accounts.
 * Per account over all addresses, with a much higher ceiling: a guesser with many addresses is
 * still stopped. Counted by the e-mail as typed (normalised), whether or not an account has it,
 * so known and unknown accounts answer alike.
 */
function buildSignInRules(address: string, email: string): SignInRules {
  const env = getEnv();
  const account = toAccountKey(email);
  const windowSeconds = env.SIGNIN_WINDOW_SECONDS;
  return {
    byAddress: { key: `signin:address:${address}`, limit: env.SIGNIN_MAX_FAILURES_PER_IP, windowSeconds },
    byAccountAndAddress: { key: `signin:account-address:${account}:${address}`, limit: env.SIGNIN_MAX_FAILURES_PER_ACCOUNT, windowSeconds },
    byAccount: { key: `signin:account:${account}`, limit: env.SIGNIN_MAX_FAILURES_PER_ACCOUNT_ALL_ADDRESSES, windowSeconds },
  };
}

/**
 * Counts a password attempt as a failure before the password is checked (so concurrent guesses
 * cannot all slip under the limit), and answers the seconds to wait when a limit is reached (0: go
 * ahead). A successful sign-in takes the attempt back with recordSuccessfulSignIn.
 */
export async function reserveSignInAttempt(address: string, email: string): Promise<number> {
  const { byAddress, byAccountAndAddress, byAccount } = buildSignInRules(address, email);
  const decision = await takeRateLimitSlots(getDb(), [byAddress, byAccountAndAddress, byAccount]);
  return decision.isAllowed ? 0 : decision.retryAfterSeconds;
}

/** The right password: the attempt was no failure, and this address starts afresh for this account. */
export async function recordSuccessfulSignIn(address: string, email: string): Promise<void> {
  const { byAddress, byAccountAndAddress, byAccount } = buildSignInRules(address, email);
  const db = getDb();
  await giveBackRateLimitSlot(db, byAddress);
  await giveBackRateLimitSlot(db, byAccount);
  await deleteRateLimitCounter(db, byAccountAndAddress.key);
}
