import "server-only";
import { getDb } from "@/src/db/client";
import { getRateLimitRetryAfter, type RateLimitRule, takeRateLimitSlots } from "./rate-limiter";

// Secrets are 256-bit random, so this is not what stops guessing; it stops one address from
// flooding the token lookup with garbage. Generous enough for a script retrying a revoked token.
const MAXIMUM_FAILURES_PER_ADDRESS = 20;
const WINDOW_SECONDS = 5 * 60;

function ruleFor(clientAddress: string): RateLimitRule {
  return { key: `api-token:address:${clientAddress}`, limit: MAXIMUM_FAILURES_PER_ADDRESS, windowSeconds: WINDOW_SECONDS };
}

/**
 * Seconds until this address may present a token again (0: go ahead). Only read here: a request
 * with a good token writes nothing, so uploads pay no extra database write.
 */
export function getApiTokenRetryAfter(clientAddress: string): Promise<number> {
  return getRateLimitRetryAfter(getDb(), ruleFor(clientAddress));
}

/** Counts a failed token lookup against the address, in the database every app instance shares. */
export async function recordFailedApiToken(clientAddress: string): Promise<void> {
  await takeRateLimitSlots(getDb(), [ruleFor(clientAddress)]);
}
