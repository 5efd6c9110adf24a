/**
 * How often a token's last-used time is written. A write on every request would turn each read
 * into a write: on SQLite every write takes the one database-wide write lock (contending with
 * uploads and the job queue), and on PostgreSQL each update leaves a dead row version behind.
 * A person looking at "last used" needs minutes, not milliseconds.
 */
export const LAST_USED_RESOLUTION_MS = 60_000;

export function isApiTokenExpired(expiresAt: string | null, now: Date): boolean {
  return expiresAt !== null && expiresAt <= now.toISOString();
}

/** Whether this use should be written down: never used, or last written over a minute ago. */
export function shouldRecordApiTokenUse(lastUsedAt: string | null, now: Date): boolean {
  return lastUsedAt === null || lastUsedAt <= toLastUsedCutoff(now);
}

/** Uses recorded at or before this instant are stale enough to be overwritten. */
export function toLastUsedCutoff(now: Date): string {
  return new Date(now.getTime() - LAST_USED_RESOLUTION_MS).toISOString();
}

/** The expiry of a token made now that lives `days` days; null days: never expires. */
export function toExpiresAt(now: Date, days: number | null): string | null {
  return days === null ? null : new Date(now.getTime() + days * 24 * 60 * 60 * 1000).toISOString();
}
