import type { DatabaseHandle } from "@/src/db/client";
import { currentRequestOrigin } from "./request-context";

export interface AuditEntry {
  actorId: string | null;
  action: string;
  targetId: string | null;
  /** What targetId names ("user", "photo", "token", "settings", ...); by default the action's domain. */
  targetType?: string | null;
  /** Written as given; new entries use { before: {...}, after: {...} } with the fields that changed. */
  details?: Record<string, unknown>;
}

/** Action domains whose target is named differently: a sign-in's or the setup's target is a user. */
const IMPLIED_TARGET_TYPES: Record<string, string> = { auth: "user", setup: "user", "api-token": "token" };

/** The target type an action implies when the caller names none: "photo.update" → "photo". */
function impliedTargetType(entry: AuditEntry): string | null {
  if (entry.targetType !== undefined) return entry.targetType;
  if (entry.targetId === null && !entry.action.startsWith("settings.")) return null;
  const domain = entry.action.split(".", 1)[0];
  return IMPLIED_TARGET_TYPES[domain] ?? domain;
}

/**
 * Writes one audit row, in the caller's transaction. The address and user agent come from the
 * request being answered (src/audit/request-context.ts), so services need not pass them.
 */
export async function insertAuditEntry(db: DatabaseHandle, entry: AuditEntry, now: string): Promise<void> {
  const origin = currentRequestOrigin();
  await db
    .insertInto("audit_log")
    .values({
      id: crypto.randomUUID(),
      actor_id: entry.actorId,
      action: entry.action,
      target_id: entry.targetId,
      target_type: impliedTargetType(entry),
      details: JSON.stringify(entry.details ?? {}),
      address: origin?.address ?? null,
      user_agent: origin?.userAgent ?? null,
      created_at: now,
    })
    .execute();
}

/**
 * Writes or raises one tally row: an event that may repeat many times in a window (a refused
 * sign-in) is one row whose details carry how many times it happened, not a row each. `id` names
 * the tally (the caller derives it from what is counted and the window); `count` is the caller's
 * atomic counter. Two writers may finish out of order, so a row is only ever raised: the details
 * are written as `{"after":{"count":N,...fields}}` with `fields` the same for one id, so the
 * higher count is the longer text, or at equal length the greater one (digits sort as numbers).
 */
export async function upsertAuditTally(
  db: DatabaseHandle,
  id: string,
  entry: Omit<AuditEntry, "details">,
  count: number,
  fields: Record<string, string | number | null>,
  now: string,
): Promise<void> {
  const origin = currentRequestOrigin();
  const details = JSON.stringify({ after: { count, ...fields } });
  await db
    .insertInto("audit_log")
    .values({
      id,
      actor_id: entry.actorId,
      action: entry.action,
      target_id: entry.targetId,
      target_type: impliedTargetType(entry),
      details,
      address: origin?.address ?? null,
      user_agent: origin?.userAgent ?? null,
      created_at: now,
    })
    .onConflict((conflict) =>
      conflict
        .column("id")
        .doUpdateSet((eb) => ({ details: eb.ref("excluded.details") }))
        .where((eb) => {
          const newLength = eb.fn<number>("length", [eb.ref("excluded.details")]);
          const oldLength = eb.fn<number>("length", [eb.ref("audit_log.details")]);
          return eb.or([eb(newLength, ">", oldLength), eb.and([eb(newLength, "=", oldLength), eb("excluded.details", ">", eb.ref("audit_log.details"))])]);
        }),
    )
    .execute();
}

