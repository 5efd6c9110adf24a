import type { DatabaseHandle } from "@/src/db/client";
import type { AuditLogTable } from "@/src/db/database";
import type { Selectable } from "kysely";

// Reading and pruning the log, for the admin's page, its API and CSV, and the retention purge.
// Writing a row is src/audit/audit.repository.ts, which every domain may import; this side may
// import users and settings, so it lives above them.

export type AuditRow = Selectable<AuditLogTable>;

export interface AuditFilter {
  actorId?: string;
  action?: string;
  targetId?: string;
  /** ISO times: created_at >= from, created_at < to. */
  from?: string;
  to?: string;
}

export interface AuditCursor {
  createdAt: string;
  id: string;
}

/**
 * Newest first, by the (created_at, id) keyset written as a row value so it stays an index range
 * (audit_log_created_at_id, or the actor/action/target index with one filter).
 */
export async function listAuditRows(db: DatabaseHandle, filter: AuditFilter, after: AuditCursor | null, limit: number): Promise<AuditRow[]> {
  let query = db.selectFrom("audit_log").selectAll();
  if (filter.actorId !== undefined) query = query.where("actor_id", "=", filter.actorId);
  if (filter.action !== undefined) query = query.where("action", "=", filter.action);
  if (filter.targetId !== undefined) query = query.where("target_id", "=", filter.targetId);
  if (filter.from !== undefined) query = query.where("created_at", ">=", filter.from);
  if (filter.to !== undefined) query = query.where("created_at", "<", filter.to);
  if (after) query = query.where((eb) => eb(eb.refTuple("created_at", "id"), "<", eb.tuple(after.createdAt, after.id)));
  return query.orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).execute();
}

/** Deletes rows older than `before`, at most `limit` of them (a purge runs in bounded steps); answers how many went. */
export async function deleteAuditRowsBefore(db: DatabaseHandle, before: string, limit: number): Promise<number> {
  const ids = db.selectFrom("audit_log").select("id").where("created_at", "<", before).orderBy("created_at").limit(limit);
  const result = await db.deleteFrom("audit_log").where("id", "in", ids).executeTakeFirst();
  return Number(result.numDeletedRows);
}
