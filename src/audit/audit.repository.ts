import type { DatabaseHandle } from "@/src/db/client";

export interface AuditEntry {
  actorId: string | null;
  action: string;
  targetId: string | null;
  details?: Record<string, unknown>;
}

export async function insertAuditEntry(db: DatabaseHandle, entry: AuditEntry, now: string): Promise<void> {
  await db
    .insertInto("audit_log")
    .values({
      id: crypto.randomUUID(),
      actor_id: entry.actorId,
      action: entry.action,
      target_id: entry.targetId,
      details: JSON.stringify(entry.details ?? {}),
      created_at: now,
    })
    .execute();
}
