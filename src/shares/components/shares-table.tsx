"use client";

import Link from "next/link";
import { useState } from "react";
import toast from "react-hot-toast";
import { callApi } from "@/src/ui/api-client";
import { shareListResponseSchema } from "../shares-api.schemas";
import { LoadMoreButton } from "@/src/ui/load-more-button";
import { CopyLinkButton } from "./copy-link-button";
import { describeViews, formatInstant, type ShareSummary } from "./share-client";
import { ShareStateBadge } from "./share-state-badge";

interface SharesTableProps {
  initialShares: ShareSummary[];
  initialCursor: string | null;
  /** Admins see everyone's links: the owner gets a column. */
  showOwner: boolean;
}

/** Every link the reader manages, newest first, with its state and numbers; more by "Load more". */
export function SharesTable({ initialShares, initialCursor, showOwner }: SharesTableProps) {
  const [shares, setShares] = useState(initialShares);
  const [cursor, setCursor] = useState(initialCursor);
  const [isLoading, setIsLoading] = useState(false);

  async function loadMore() {
    if (!cursor) return;
    setIsLoading(true);
    try {
      const page = await callApi(`/api/shares?cursor=${encodeURIComponent(cursor)}`, { method: "GET" }, shareListResponseSchema);
      setShares((current) => [...current, ...page.shares]);
      setCursor(page.nextCursor);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : "Could not load more links.");
    } finally {
      setIsLoading(false);
    }
  }

  if (shares.length === 0) {
    return (
      <div className="empty-state">
        <p>No share links yet.</p>
        <p className="muted">
          Select photos under <Link href="/admin/photos">Photos</Link> or open an album under <Link href="/admin/albums">Albums</Link>, then choose “Share…”.
        </p>
      </div>
    );
  }

  return (
    <>
      <table className="table shares-table">
        <thead>
          <tr>
            <th>Link</th>
            <th>State</th>
            {showOwner && <th>Owner</th>}
            <th className="numeric">Photos</th>
            <th className="numeric">Views</th>
            <th className="numeric">Downloads</th>
            <th>Last visit</th>
            <th>Expires</th>
            <th>
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {shares.map((share) => (
            <tr key={share.id}>
              <td data-label="Link">
                <span>
                  <Link href={`/admin/shares/${share.id}`} className="share-title-link">
                    {share.title}
                  </Link>
                  {share.hasPassword && <span className="muted share-flag"> · password</span>}
                </span>
              </td>
              <td data-label="State">
                <ShareStateBadge state={share.state} />
              </td>
              {showOwner && <td data-label="Owner">{share.owner.name}</td>}
              <td data-label="Photos" className="numeric">
                {share.photoCount}
              </td>
              <td data-label="Views" className="numeric">
                {describeViews(share)}
              </td>
              <td data-label="Downloads" className="numeric">
                {share.downloads}
              </td>
              <td data-label="Last visit">{formatInstant(share.lastVisitedAt, "Not yet")}</td>
              <td data-label="Expires">{formatInstant(share.expiresAt, "Never")}</td>
              <td className="table-actions">
                <div className="actions">
                  {share.state !== "revoked" && <CopyLinkButton url={share.url} title={share.title} />}
                  <Link href={`/admin/shares/${share.id}`} className="button secondary button-small" aria-label={`Settings: ${share.title}`}>
                    Settings
                  </Link>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {cursor && <LoadMoreButton isLoading={isLoading} onLoad={() => void loadMore()} />}
    </>
  );
}
