import "server-only";
import type { DatabaseHandle } from "@/src/db/client";
import {
  decrementRateLimitCounter,
  deleteExpiredRateLimitCounters,
  findRateLimitCounter,
  incrementRateLimitCounter,
} from "./rate-limits.repository";
import { processSlot } from "@/src/config/process-singleton";

/** One limit: at most `limit` events for `key` in each fixed window of `windowSeconds`. */
export interface RateLimitRule {
  key: string;
  limit: number;
  windowSeconds: number;
}

export type RateLimitDecision = { isAllowed: true } | { isAllowed: false; retryAfterSeconds: number };

// Ended windows count as zero whether or not their row is still there; deleting them now and then
// only keeps the table small.
const CLEANUP_INTERVAL_MS = 60_000;
const nextCleanupAt = processSlot<number>("rate-limit-cleanup-at");

async function deleteExpiredCountersNowAndThen(db: DatabaseHandle, now: Date): Promise<void> {
  if ((nextCleanupAt.get() ?? 0) > now.getTime()) return;
  nextCleanupAt.set(now.getTime() + CLEANUP_INTERVAL_MS);
  await deleteExpiredRateLimitCounters(db, now.toISOString());
}

function secondsUntil(resetsAt: string, now: Date): number {
  return Math.max(1, Math.ceil((Date.parse(resetsAt) - now.getTime()) / 1000));
}

/** Seconds until `rule` allows another event (0: it does now). Counts nothing. */
export async function getRateLimitRetryAfter(db: DatabaseHandle, rule: RateLimitRule, now = new Date()): Promise<number> {
  const counter = await findRateLimitCounter(db, rule.key, now.toISOString());
  return counter && counter.count >= rule.limit ? secondsUntil(counter.resetsAt, now) : 0;
}

/**
 * Counts one event against every rule, or against none: each counter is taken atomically in the
 * database (so concurrent requests cannot all slip under a limit), and when one rule is already at
 * its limit, those taken before it are given back. Refused events are not counted, so hammering
 * a refused key never pushes another key (an account-wide ceiling, say) over its limit.
 */
export async function takeRateLimitSlots(db: DatabaseHandle, rules: RateLimitRule[], now = new Date()): Promise<RateLimitDecision> {
  await deleteExpiredCountersNowAndThen(db, now);
  const taken: RateLimitRule[] = [];
  for (const rule of rules) {
    const resetsAt = new Date(now.getTime() + rule.windowSeconds * 1000).toISOString();
    const counter = await incrementRateLimitCounter(db, { key: rule.key, limit: rule.limit, resetsAt }, now.toISOString());
    if (!counter) {
      for (const takenRule of taken) await decrementRateLimitCounter(db, takenRule.key);
      const waits = await Promise.all(rules.map((each) => getRateLimitRetryAfter(db, each, now)));
      return { isAllowed: false, retryAfterSeconds: Math.max(1, ...waits) };
    }
    taken.push(rule);
  }
  return { isAllowed: true };
}

/** Gives back one event counted by takeRateLimitSlots (it turned out not to be one to count). */
export async function giveBackRateLimitSlot(db: DatabaseHandle, rule: RateLimitRule): Promise<void> {
  await decrementRateLimitCounter(db, rule.key);
}
