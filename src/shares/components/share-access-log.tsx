"use client";

import { useState } from "react";
import toast from "react-hot-toast";
import { callApi } from "@/src/ui/api-client";
import { LoadMoreButton } from "@/src/ui/load-more-button";
import type { ShareAccessEvent } from "../share.types";
import { shareAccessLogResponseSchema } from "../shares-api.schemas";
import type { ShareAccessLogEntry } from "../shares-owner.types";
import { formatInstant } from "./share-client";

const EVENT_LABELS: Record<ShareAccessEvent, string> = {
  visit: "Opened the link",
  view_photo: "Viewed a photo",
  download: "Downloaded a photo",
  download_zip: "Downloaded the ZIP",
  password_refused: "Wrong password",
  selection_sent: "Sent a selection",
};

/** What the link's visitors did, newest first; addresses older than 30 days show as "hashed". */
export function ShareAccessLog({ shareId, initialEntries, initialCursor }: { shareId: string; initialEntries: ShareAccessLogEntry[]; initialCursor: string | null }) {
  const [entries, setEntries] = useState(initialEntries);
  const [cursor, setCursor] = useState(initialCursor);
  const [isLoading, setIsLoading] = useState(false);

  async function loadMore() {
    if (!cursor) return;
    setIsLoading(true);
    try {
      const page = await callApi(
        `/api/shares/${encodeURIComponent(shareId)}/access-log?cursor=${encodeURIComponent(cursor)}`,
        { method: "GET" },
        shareAccessLogResponseSchema,
      );
      setEntries((current) => [...current, ...page.entries]);
      setCursor(page.nextCursor);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : "Could not load more of the log.");
    } finally {
      setIsLoading(false);
    }
  }

  if (entries.length === 0) return <p className="empty-state muted">Nobody has opened this link yet.</p>;
  return (
    <>
      <table className="table share-log-table">
        <thead>
          <tr>
            <th>When</th>
            <th>What</th>
            <th>Photo</th>
            <th>Address</th>
            <th>Browser</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id}>
              <td data-label="When">{formatInstant(entry.createdAt, "")}</td>
              <td data-label="What">{EVENT_LABELS[entry.event] ?? entry.event}</td>
              <td data-label="Photo">{entry.photoId === null ? "—" : entry.photoTitle || "Untitled or removed"}</td>
              <td data-label="Address">{entry.addressHashed ? <span className="muted">hashed</span> : (entry.address ?? "—")}</td>
              <td data-label="Browser" className="share-log-agent" title={entry.userAgent ?? undefined}>
                {entry.userAgent ?? "—"}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {cursor && <LoadMoreButton isLoading={isLoading} onLoad={() => void loadMore()} />}
    </>
  );
}
