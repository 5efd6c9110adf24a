import "server-only";
import { createHash, createHmac } from "node:crypto";
import { getEnv } from "@/src/config/env";
import { getDb } from "@/src/db/client";
import { normalizeEmail } from "@/src/users/normalize-email";
import { upsertAuditTally } from "@/src/audit/audit.repository";
import { deleteRateLimitCounter, findRateLimitCounter, incrementRateLimitCounter } from "./rate-limits.repository";
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

/** No limit in practice: the largest value of PostgreSQL's integer, which a larger limit would not fit. */
const REFUSALS_COUNTED_UP_TO = 2 ** 31 - 1;

/** A UUID (version 5 layout) that is the same for the same text: one tally row per counter window. */
function uuidOf(text: string): string {
  const hex = createHash("sha256").update(text).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** How many accounts one address gets a refusal row of its own for, per window; any more share one row. */
const REFUSAL_ROWS_PER_ADDRESS = 10;

/**
 * Records a refused (429) sign-in in the audit log as a count, not a row each, so a guesser
 * hammering the limit cannot fill the log and the admin still sees how many were refused, from
 * where and for which e-mail (as normalised, never the password). Per address and window of
 * SIGNIN_WINDOW_SECONDS: one row for each of the first REFUSAL_ROWS_PER_ADDRESS accounts tried,
 * and one for all others together, so an address cycling through e-mails writes at most 11 rows.
 * A row's `count` is raised by every refusal it stands for, counted in rate_limits, atomically,
 * like the limits themselves.
 */
export async function recordRefusedSignIn(address: string, email: string, now = new Date()): Promise<void> {
  const db = getDb();
  const resetsAt = new Date(now.getTime() + getEnv().SIGNIN_WINDOW_SECONDS * 1000).toISOString();
  const count = (key: string, limit: number) => incrementRateLimitCounter(db, { key, limit, resetsAt }, now.toISOString());
  const accountKey = `signin:refused:${toAccountKey(email)}:${address}`;
  // An account given a row of its own this window keeps it; a new one takes one of the address's few.
  const hasOwnRow =
    (await findRateLimitCounter(db, accountKey, now.toISOString())) !== undefined ||
    (await count(`signin:refused-accounts:${address}`, REFUSAL_ROWS_PER_ADDRESS)) !== undefined;
  const key = hasOwnRow ? accountKey : `signin:refused-others:${address}`;
  const counter = await count(key, REFUSALS_COUNTED_UP_TO);
  if (!counter) return; // Two billion refusals in one window: the row already says enough.
  await upsertAuditTally(
    db,
    uuidOf(`${key}|${counter.resetsAt}`),
    { actorId: null, action: "auth.sign-in-rate-limited", targetId: null, targetType: "user" },
    counter.count,
    hasOwnRow
      ? { email: normalizeEmail(email), windowEndsAt: counter.resetsAt }
      : { accounts: `beyond the first ${REFUSAL_ROWS_PER_ADDRESS}`, windowEndsAt: counter.resetsAt },
    now.toISOString(),
  );
}
