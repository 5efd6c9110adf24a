import type { Metadata } from "next";
import Link from "next/link";
import { AuditTable } from "@/src/audit-admin/components/audit-log-view";
import { AUDIT_ACTIONS, type AuditPage, auditQuerySchema } from "@/src/audit-admin/audit.schemas";
import { listAuditActors, listAuditEntries } from "@/src/audit-admin/audit.service";
import { requirePageUser } from "@/src/auth/page-guard";
import { getDb } from "@/src/db/client";
import { AdminPage } from "@/src/ui/admin-page";
import { AppError } from "@/src/errors/app-error";

export const metadata: Metadata = { title: "Audit log" };

const FILTER_NAMES = ["actor", "action", "target", "from", "to"] as const;

/** The query's first value of each name the filters use (empty ones dropped). */
function readFilters(searchParams: Record<string, string | string[] | undefined>): Record<string, string> {
  const filters: Record<string, string> = {};
  for (const name of [...FILTER_NAMES, "cursor"]) {
    const raw = searchParams[name];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value) filters[name] = value;
  }
  return filters;
}

const EMPTY_PAGE: AuditPage = { entries: [], nextCursor: null };

/** A cursor this page never gave out (edited by hand): nothing to list, as for filters that do not parse, not a 500. */
function emptyPageForBadCursor(error: unknown): AuditPage {
  if (error instanceof AppError && (error.code === "INVALID_INPUT" || error.code === "BAD_REQUEST")) return EMPTY_PAGE;
  throw error;
}

// /admin/audit – every change: who, when, from where, what, before and after; filters, keyset paging, CSV (admins)
export default async function AdminAuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePageUser("admin", "/admin/audit");
  const filters = readFilters(await searchParams);
  const parsed = auditQuerySchema.safeParse(filters);
  const [actors, page] = await Promise.all([
    listAuditActors(getDb(), user),
    parsed.success ? listAuditEntries(getDb(), user, parsed.data).catch(emptyPageForBadCursor) : Promise.resolve<AuditPage>(EMPTY_PAGE),
  ]);
  const { cursor, ...activeFilters } = filters;
  const filterQuery = new URLSearchParams(activeFilters).toString();
  const olderQuery = page.nextCursor ? new URLSearchParams({ ...activeFilters, cursor: page.nextCursor }).toString() : null;
  return (
    <AdminPage role={user.role} title="Audit log" intro="Every sign-in and change, newest first: who, when, from which address, and what changed.">
      <form className="admin-panel audit-filters" method="get" action="/admin/audit" aria-label="Filter the audit log">
        <label className="field">
          Who
          <select name="actor" defaultValue={filters.actor ?? ""}>
            <option value="">Anyone</option>
            {actors.map((actor) => (
              <option key={actor.id} value={actor.id}>
                {actor.label}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          Action
          <select name="action" defaultValue={filters.action ?? ""}>
            <option value="">Any action</option>
            {[...new Set([...AUDIT_ACTIONS, ...(filters.action ? [filters.action] : [])])].map((action) => (
              <option key={action} value={action}>
                {action}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          Target id
          <input name="target" defaultValue={filters.target ?? ""} maxLength={200} spellCheck={false} />
        </label>
        <label className="field">
          From
          <input name="from" type="date" defaultValue={filters.from ?? ""} />
        </label>
        <label className="field">
          To
          <input name="to" type="date" defaultValue={filters.to ?? ""} />
        </label>
        <div className="audit-filter-actions">
          <Link className="button secondary" href="/admin/audit">
            Clear
          </Link>
          <button type="submit">Filter</button>
        </div>
      </form>

      {!parsed.success && (
        <p className="notice error" role="alert">
          {parsed.error.issues[0]?.message ?? "Those filters are not valid."}
        </p>
      )}

      <div className="audit-toolbar">
        <p className="muted">{cursor ? "Older entries" : "Newest entries"}{page.entries.length > 0 ? `: ${page.entries.length} shown` : ""}</p>
        <a className="button secondary" href={`/api/admin/audit.csv${filterQuery ? `?${filterQuery}` : ""}`} download data-testid="audit-export">
          Export CSV
        </a>
      </div>

      {page.entries.length === 0 ? (
        <p className="empty-state muted">No entries match.</p>
      ) : (
        <AuditTable entries={page.entries} />
      )}

      <nav className="audit-paging" aria-label="Audit log pages">
        {cursor ? <Link href={`/admin/audit${filterQuery ? `?${filterQuery}` : ""}`}>Newest</Link> : <span />}
        {olderQuery && (
          <Link className="button secondary" href={`/admin/audit?${olderQuery}`} data-testid="audit-older">
            Older
          </Link>
        )}
      </nav>
    </AdminPage>
  );
}
