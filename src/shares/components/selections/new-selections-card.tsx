import Link from "next/link";
import type { NewSelectionRow } from "../../proofing.repository";

const DATE_TIME = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", timeZone: "UTC" });

/** The dashboard's "New selections": visitors who sent picks since the owner last opened that share's selections. */
export function NewSelectionsCard({ selections }: { selections: Array<Pick<NewSelectionRow, "shareId" | "shareTitle" | "visitorId" | "visitorName" | "sentAt">> }) {
  return (
    <section className="new-selections" aria-labelledby="new-selections-title">
      <h2 id="new-selections-title">New selections</h2>
      {selections.length === 0 ? (
        <p className="muted">No visitor has sent a selection since you last looked.</p>
      ) : (
        <ul className="new-selections-list">
          {selections.map((selection) => (
            <li key={selection.visitorId}>
              {/* Not prefetched: rendering that page marks its selections seen. */}
              <Link href={`/admin/shares/${encodeURIComponent(selection.shareId)}/selections`} prefetch={false}>
                <strong>{selection.visitorName}</strong> sent picks for {selection.shareTitle}
              </Link>{" "}
              <time className="muted" dateTime={selection.sentAt}>
                {DATE_TIME.format(new Date(selection.sentAt))} UTC
              </time>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
