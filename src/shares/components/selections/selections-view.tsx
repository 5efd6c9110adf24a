"use client";

import { useState } from "react";
import toast from "react-hot-toast";
import { callApi } from "@/src/ui/api-client";
import { ConfirmDialog } from "@/src/ui/dialog";
import { type SelectionPhoto, selectionLockResponseSchema, type SelectionsResponse, type SelectionVisitor } from "../../proofing-api.schemas";

const DATE_TIME = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" });

function formatTime(value: string): string {
  return DATE_TIME.format(new Date(value));
}

/**
 * The owner's view of a share's proofing (/admin/shares/[id]/selections): the lock, the exports
 * and how to use the Lightroom list, then each visitor with their picks as thumbnails and their
 * comments. Props: the answer of GET /api/shares/[id]/selections, read by the page.
 */
export function SelectionsView({ selections }: { selections: SelectionsResponse }) {
  const { share, visitors } = selections;
  const [lockedAt, setLockedAt] = useState(share.lockedAt);
  const [isConfirming, setIsConfirming] = useState(false);
  const [isBusy, setIsBusy] = useState(false);
  const base = `/api/shares/${encodeURIComponent(share.id)}`;
  const pickCount = visitors.reduce((sum, visitor) => sum + visitor.picks.length, 0);

  async function changeLock(lock: boolean) {
    setIsBusy(true);
    try {
      const answer = await callApi(`${base}/selection-lock`, { method: lock ? "PUT" : "DELETE" }, selectionLockResponseSchema);
      setLockedAt(answer.lockedAt);
      toast.success(lock ? "Selection locked: visitors can no longer change their picks." : "Selection unlocked: visitors can change their picks again.");
      setIsConfirming(false);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : "That did not work.");
    } finally {
      setIsBusy(false);
    }
  }

  return (
    <div className="selections">
      {!share.allowPicks && <p className="notice">This link does not invite picks now; what visitors picked before stays here.</p>}
      <section className="selections-toolbar" aria-label="Lock and export">
        <div className="selections-lock">
          {lockedAt ? (
            <>
              <span className="badge badge-warning">Locked</span>
              <span className="muted">since {formatTime(lockedAt)}: visitors see their picks read-only.</span>
              <button type="button" className="secondary button-small" disabled={isBusy} onClick={() => void changeLock(false)}>
                Unlock
              </button>
            </>
          ) : (
            <>
              <span className="badge badge-success">Open</span>
              <span className="muted">Visitors can change and send their picks.</span>
              <button type="button" className="secondary button-small" disabled={isBusy} onClick={() => setIsConfirming(true)}>
                Lock selection
              </button>
            </>
          )}
        </div>
        <div className="selections-exports">
          <a className="button secondary button-small" href={`${base}/selections.csv`} download>
            Export CSV
          </a>
          <a className="button secondary button-small" href={`${base}/selections.txt`} download aria-disabled={pickCount === 0 ? "true" : undefined}>
            Lightroom list (all picks)
          </a>
        </div>
      </section>
      <details className="selections-help">
        <summary>How to use the Lightroom list</summary>
        <ol>
          <li>Download the list (of everyone, or one visitor&apos;s) and copy its one line.</li>
          <li>
            In Lightroom Classic&apos;s Library module, show the filter bar (View › Show Filter Bar, or <kbd>\</kbd>) and choose <strong>Text</strong>.
          </li>
          <li>
            Set the first menu to <strong>Filename</strong> and the second to <strong>Contains</strong>, then paste the line.
          </li>
          <li>The commas make it a list of alternatives: every picked photo shows, whatever its extension (RAW, DNG or JPEG).</li>
        </ol>
      </details>
      {visitors.length === 0 ? (
        <p className="empty-state muted">No visitor has given their name on this link yet.</p>
      ) : (
        <ul className="selection-visitors">
          {visitors.map((visitor) => (
            <VisitorSelection key={visitor.id} visitor={visitor} base={base} pickLimit={share.pickLimit} />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={isConfirming}
        title="Lock the selection?"
        confirmLabel="Lock selection"
        isBusy={isBusy}
        onConfirm={() => void changeLock(true)}
        onClose={() => setIsConfirming(false)}
      >
        <p className="dialog-text">Visitors will still see their picks and comments, but can no longer change or send them. You can unlock it again.</p>
      </ConfirmDialog>
    </div>
  );
}

function VisitorSelection({ visitor, base, pickLimit }: { visitor: SelectionVisitor; base: string; pickLimit: number | null }) {
  const count = pickLimit === null ? `${visitor.picks.length} picked` : `${visitor.picks.length} of ${pickLimit} picked`;
  return (
    <li className="selection-visitor" data-testid="selection-visitor">
      <header className="selection-visitor-header">
        <div>
          <h2 className="selection-visitor-name">
            {visitor.name} {visitor.isNew && <span className="badge badge-success">New</span>}
          </h2>
          <p className="muted selection-visitor-meta">
            {visitor.email && (
              <>
                <a href={`mailto:${visitor.email}`}>{visitor.email}</a> ·{" "}
              </>
            )}
            {count} · {visitor.sentAt ? `sent ${formatTime(visitor.sentAt)}` : "not sent yet"}
          </p>
        </div>
        {visitor.picks.length > 0 && (
          <a className="button secondary button-small" href={`${base}/selections.txt?visitor=${encodeURIComponent(visitor.id)}`} download>
            Lightroom list
          </a>
        )}
      </header>
      {visitor.picks.length > 0 ? (
        <ul className="selection-picks" aria-label={`${visitor.name}'s picks`}>
          {visitor.picks.map((photo) => (
            <SelectionPhotoItem key={photo.photoId} photo={photo} />
          ))}
        </ul>
      ) : (
        <p className="muted">No picks yet.</p>
      )}
      {visitor.comments.length > 0 && (
        <>
          <h3 className="selection-subheading">Comments on other photos</h3>
          <ul className="selection-picks" aria-label={`${visitor.name}'s comments`}>
            {visitor.comments.map((photo) => (
              <SelectionPhotoItem key={photo.photoId} photo={photo} />
            ))}
          </ul>
        </>
      )}
    </li>
  );
}

function SelectionPhotoItem({ photo }: { photo: SelectionPhoto }) {
  return (
    <li className="selection-photo">
      <div className="selection-thumb">
        {/* eslint-disable-next-line @next/next/no-img-element -- a signed-in owner's variant under /media, sized by CSS */}
        {photo.thumbnailUrl ? <img src={photo.thumbnailUrl} alt={photo.name} loading="lazy" /> : <span className="muted">No preview</span>}
      </div>
      <p className="selection-photo-name" title={photo.originalName}>
        {photo.title || photo.originalName}
      </p>
      {photo.comment && <blockquote className="selection-comment">{photo.comment}</blockquote>}
    </li>
  );
}
