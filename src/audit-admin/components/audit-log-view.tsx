import Link from "next/link";
import type { AuditEntryView } from "../audit.schemas";

const MAX_VALUE_LENGTH = 80;

/** A stored value in a few words: text as it is, anything else as JSON, cut to a readable length. */
function describeValue(value: unknown): string {
  const text = typeof value === "string" ? value : value === undefined ? "–" : JSON.stringify(value);
  return text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH - 1)}…` : text;
}

function asFields(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * The fields an entry changed, "field: before → after" (or only the side there is). Rows written
 * before details took the { before, after } shape show their details as they are. Everything is
 * text React escapes: a stored <script> or SQL shows as what it is.
 */
function ChangeSummary({ details }: { details: Record<string, unknown> }) {
  const hasShape = "before" in details || "after" in details;
  const before = hasShape ? asFields(details.before) : {};
  const after = hasShape ? asFields(details.after) : details;
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  if (fields.length === 0) return <span className="muted">–</span>;
  return (
    <ul className="audit-changes">
      {fields.map((field) => (
        <li key={field}>
          <span className="audit-field">{field}</span>:{" "}
          {field in before && <span className="audit-before">{describeValue(before[field])}</span>}
          {field in before && field in after && " → "}
          {field in after && <span>{describeValue(after[field])}</span>}
        </li>
      ))}
    </ul>
  );
}

/** A long id (a UUID) by its first characters; the whole id is the link's title and its filter. */
function shortId(id: string): string {
  return id.length > 13 ? `${id.slice(0, 8)}…` : id;
}

function formatTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

export function AuditTable({ entries }: { entries: AuditEntryView[] }) {
  return (
    <table className="table audit-table" data-testid="audit-table">
      <thead>
        <tr>
          <th scope="col">When (UTC)</th>
          <th scope="col">Who</th>
          <th scope="col">Action</th>
          <th scope="col">Target</th>
          <th scope="col">From</th>
          <th scope="col">Changes</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((entry) => (
          <tr key={entry.id} data-testid="audit-row">
            <td data-label="When" className="audit-time">
              <time dateTime={entry.createdAt}>{formatTime(entry.createdAt)}</time>
            </td>
            <td data-label="Who">
              {entry.actor ? (
                <Link href={`/admin/audit?actor=${encodeURIComponent(entry.actor.id)}`} title={entry.actor.email ?? entry.actor.id}>
                  {entry.actor.name ?? "Deleted user"}
                </Link>
              ) : (
                <span className="muted">Nobody signed in</span>
              )}
            </td>
            <td data-label="Action" className="audit-action">
              {entry.action}
            </td>
            <td data-label="Target">
              {/* One child per cell: on a phone each cell is a two-column grid of its label and this. */}
              <span className="audit-target">
                {entry.targetType && <span className="muted">{entry.targetType} </span>}
                {entry.targetId ? (
                  <Link href={`/admin/audit?target=${encodeURIComponent(entry.targetId)}`} title={entry.targetId}>
                    {shortId(entry.targetId)}
                  </Link>
                ) : null}
              </span>
            </td>
            <td data-label="From">
              <span className="audit-origin">
                <span className="audit-address">{entry.address ?? "–"}</span>
                {entry.userAgent && (
                  <span className="audit-agent" title={entry.userAgent}>
                    {entry.userAgent}
                  </span>
                )}
              </span>
            </td>
            <td data-label="Changes">
              <ChangeSummary details={entry.details} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
