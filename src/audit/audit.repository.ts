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
