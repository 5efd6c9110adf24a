import "server-only";
import { createHmac } from "node:crypto";
import { getEnv } from "@/src/config/env";
import type { DatabaseHandle } from "@/src/db/client";
import { getDb } from "@/src/db/client";
import { inTransaction } from "@/src/db/transaction";
import type { RecurringJob } from "@/src/jobs/recurring-jobs";
import { getLogger } from "@/src/log/logger";
import { listUnhashedAccessAddresses, setHashedAccessAddress } from "./share-links.repository";

/**
 * Share access logs keep a visitor's address for 30 days; after that it is replaced by a keyed
 * hash (HMAC-SHA256 with a key derived from NEXTAUTH_SECRET), so the owner can still tell that two
 * old visits came from one address without the address itself being kept. Daily, once across
 * instances, through the job queue (src/jobs/recurring-jobs.ts).
 */
export const HASH_SHARE_ADDRESSES_JOB = "share.hash-addresses";

/** How long an access-log address stays readable. */
export const SHARE_ADDRESS_RETENTION_DAYS = 30;

const DAY_MS = 24 * 60 * 60 * 1000;
const BATCH = 500;

/** The key the addresses are hashed with: derived, so the session secret itself never hashes anything else. */
function addressHashKey(secret: string): Buffer {
  return createHmac("sha256", secret).update("contact-sheet share access address v1").digest();
}

/** An address as it is kept after the retention: "hmac-sha256:" and the keyed hash, base64url. */
export function hashShareAddress(address: string, secret: string): string {
  return `hmac-sha256:${createHmac("sha256", addressHashKey(secret)).update(address).digest("base64url")}`;
}

/**
 * Replaces every address older than the retention by its keyed hash (address_is_hashed = 1), in
 * batches of one transaction each. Answers how many rows were hashed.
 */
export async function hashOldShareAddresses(db: DatabaseHandle, secret: string, now: Date = new Date()): Promise<number> {
  const before = new Date(now.getTime() - SHARE_ADDRESS_RETENTION_DAYS * DAY_MS).toISOString();
  let hashed = 0;
  for (;;) {
    const count = await inTransaction(db, async (transaction) => {
      const rows = await listUnhashedAccessAddresses(transaction, before, BATCH);
      for (const row of rows) await setHashedAccessAddress(transaction, row.id, row.address === null ? null : hashShareAddress(row.address, secret));
      return rows.length;
    });
    hashed += count;
    if (count < BATCH) return hashed;
  }
}

export const shareAddressHashingJob: RecurringJob = {
  kind: HASH_SHARE_ADDRESSES_JOB,
  everyMs: DAY_MS,
  run: async () => {
    const hashed = await hashOldShareAddresses(getDb(), getEnv().NEXTAUTH_SECRET);
    if (hashed > 0) getLogger().info({ hashed }, "hashed share access-log addresses older than 30 days");
  },
};
