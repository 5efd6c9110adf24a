import "server-only";
import type { SessionUser } from "@/src/access/viewer";
import { insertAuditEntry } from "@/src/audit/audit.repository";
import type { DatabaseHandle } from "@/src/db/client";
import { AppError } from "@/src/errors/app-error";
import { getSiteSettings } from "@/src/settings/site-settings.service";
import { listUsers } from "@/src/users/users.repository";
import { toCsvLine } from "@/src/csv/csv-writer";
import { type AuditCursor, type AuditFilter, type AuditRow, deleteAuditRowsBefore, listAuditRows } from "./audit-log.repository";
import { AUDIT_PAGE_SIZE, type AuditEntryView, type AuditPage, type AuditQuery } from "./audit.schemas";

function assertAdmin(actor: SessionUser): void {
  // The handler wrapper checks this too; services check again so no caller can forget.
  if (actor.role !== "admin") throw new AppError("FORBIDDEN", "Only admins can read the audit log.");
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** A filter's day bounds as times: `from` a day's start, `to` the end of that day (UTC). */
function toFilter(query: Omit<AuditQuery, "cursor" | "limit">): AuditFilter {
  const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);
  return {
    actorId: query.actor,
    action: query.action,
    targetId: query.target,
    from: query.from === undefined ? undefined : isDay(query.from) ? `${query.from}T00:00:00.000Z` : new Date(query.from).toISOString(),
    to:
      query.to === undefined
        ? undefined
        : isDay(query.to)
          ? new Date(Date.parse(`${query.to}T00:00:00.000Z`) + DAY_MS).toISOString()
          : new Date(query.to).toISOString(),
  };
}

function encodeCursor(row: AuditRow): string {
  return Buffer.from(JSON.stringify([row.created_at, row.id])).toString("base64url");
}

function decodeCursor(cursor: string): AuditCursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === "string" && typeof value[1] === "string") {
      return { createdAt: value[0], id: value[1] };
    }
  } catch {
    // Falls through to the refusal.
  }
  throw new AppError("INVALID_INPUT", "The cursor is not one this API gave out.");
}

function parseDetails(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

type ActorNames = Map<string, { name: string; email: string }>;

async function loadActorNames(db: DatabaseHandle): Promise<ActorNames> {
  return new Map((await listUsers(db)).map((user) => [user.id, { name: user.name, email: user.email }]));
}

function toEntryView(row: AuditRow, actors: ActorNames): AuditEntryView {
  const actor = row.actor_id === null ? null : actors.get(row.actor_id);
  return {
    id: row.id,
    createdAt: row.created_at,
    // A deleted user's rows keep their id, without a name.
    actor: row.actor_id === null ? null : { id: row.actor_id, name: actor?.name ?? null, email: actor?.email ?? null },
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    address: row.address,
    userAgent: row.user_agent,
    details: parseDetails(row.details),
  };
}

/** One page of the audit log, newest first, by the (created_at, id) keyset. Admins only. */
export async function listAuditEntries(db: DatabaseHandle, actor: SessionUser, query: AuditQuery): Promise<AuditPage> {
  assertAdmin(actor);
  const limit = query.limit ?? AUDIT_PAGE_SIZE;
  const after = query.cursor === undefined ? null : decodeCursor(query.cursor);
  const [rows, actors] = await Promise.all([listAuditRows(db, toFilter(query), after, limit + 1), loadActorNames(db)]);
  const page = rows.slice(0, limit);
  return {
    entries: page.map((row) => toEntryView(row, actors)),
    nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1]) : null,
  };
}

/** The users who may appear as actors, for the filter's choices. Admins only. */
export async function listAuditActors(db: DatabaseHandle, actor: SessionUser): Promise<Array<{ id: string; label: string }>> {
  assertAdmin(actor);
  return (await listUsers(db)).map((user) => ({ id: user.id, label: `${user.name} (${user.email})` }));
}

const CSV_HEADER = ["time", "actor_id", "actor_email", "action", "target_type", "target_id", "address", "user_agent", "before", "after"];
const CSV_BATCH = 500;

/**
 * Every row the filter matches, newest first, as CSV, read in keyset batches while the answer is
 * sent (never the whole log in memory). Admins only; checked before the first byte.
 */
export function streamAuditCsv(db: DatabaseHandle, actor: SessionUser, query: Omit<AuditQuery, "cursor" | "limit">): ReadableStream<Uint8Array> {
  assertAdmin(actor);
  const filter = toFilter(query);
  const encoder = new TextEncoder();
  let after: AuditCursor | null = null;
  let actors: ActorNames | null = null;
  let isDone = false;
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(encoder.encode(toCsvLine(CSV_HEADER)));
    },
    async pull(controller) {
      if (isDone) return;
      actors ??= await loadActorNames(db);
      const rows = await listAuditRows(db, filter, after, CSV_BATCH);
      const lines = rows.map((row) => {
        const details = parseDetails(row.details);
        const { before, after: afterFields, ...rest } = details;
        const afterCell = afterFields !== undefined ? afterFields : Object.keys(rest).length > 0 ? rest : undefined;
        return toCsvLine([
          row.created_at,
          row.actor_id,
          row.actor_id === null ? null : (actors?.get(row.actor_id)?.email ?? null),
          row.action,
          row.target_type,
          row.target_id,
          row.address,
          row.user_agent,
          before === undefined ? null : JSON.stringify(before),
          afterCell === undefined ? null : JSON.stringify(afterCell),
        ]);
      });
      if (lines.length > 0) controller.enqueue(encoder.encode(lines.join("")));
      if (rows.length < CSV_BATCH) {
        isDone = true;
        controller.close();
        return;
      }
      const last = rows[rows.length - 1];
      after = { createdAt: last.created_at, id: last.id };
    },
  });
}

const PURGE_BATCH = 1000;

/**
 * Deletes audit rows older than the retention setting, in bounded batches, and records that it
 * did (with how many went). Answers how many rows were deleted.
 */
export async function purgeExpiredAuditEntries(db: DatabaseHandle, now: Date = new Date()): Promise<number> {
  const { auditRetentionDays } = await getSiteSettings(db);
  const before = new Date(now.getTime() - auditRetentionDays * DAY_MS).toISOString();
  let deleted = 0;
  for (;;) {
    const count = await deleteAuditRowsBefore(db, before, PURGE_BATCH);
    deleted += count;
    if (count < PURGE_BATCH) break;
  }
  if (deleted > 0) {
    const details = { after: { deleted, before, retentionDays: auditRetentionDays } };
    await insertAuditEntry(db, { actorId: null, action: "audit.purge", targetId: null, targetType: "audit", details }, now.toISOString());
  }
  return deleted;
}
