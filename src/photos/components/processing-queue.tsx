"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import toast from "react-hot-toast";
import { callApi } from "@/src/ui/api-client";
import type { QueuedPhoto } from "../processing-queue.service";

/** While anything is still processing, the page re-reads the queue this often. */
const REFRESH_MS = 3000;

function describeStage(photo: QueuedPhoto): string {
  if (photo.status === "failed") return "Failed";
  if (photo.stage === "running") return photo.attempts > 1 ? `Processing (try ${photo.attempts})` : "Processing";
  return "Waiting";
}

/** The processing queue on /admin: what is still being processed, and what failed with a retry button. */
export function ProcessingQueue({ photos }: { photos: QueuedPhoto[] }) {
  const router = useRouter();
  const [retryingId, setRetryingId] = useState<string | null>(null);
  const isBusy = photos.some((photo) => photo.status === "processing");

  useEffect(() => {
    if (!isBusy) return;
    const timer = setInterval(() => router.refresh(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [isBusy, router]);

  async function retry(photo: QueuedPhoto) {
    setRetryingId(photo.id);
    try {
      await callApi(`/api/photos/${photo.id}/retry`, { method: "POST" });
      toast.success(`Processing ${photo.name} again.`);
      router.refresh();
    } catch (error) {
      toast.error(error instanceof Error ? error.message : "Could not retry.");
    } finally {
      setRetryingId(null);
    }
  }

  if (photos.length === 0) return <p className="empty-state muted">Nothing is waiting: every photo is processed.</p>;
  return (
    <table className="table" data-testid="processing-queue">
      <thead>
        <tr>
          <th>Photo</th>
          <th>Owner</th>
          <th>State</th>
          <th>Reason</th>
          <th>
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {photos.map((photo) => (
          <tr key={photo.id} data-status={photo.status}>
            <td data-label="Photo">
              <Link href={`/p/${photo.id}`}>{photo.name || photo.id}</Link>
            </td>
            <td data-label="Owner">{photo.ownerName}</td>
            <td data-label="State">
              <span className={photo.status === "failed" ? "badge badge-danger" : "badge"}>{describeStage(photo)}</span>
            </td>
            <td data-label="Reason">{photo.failureReason ?? <span className="muted">—</span>}</td>
            <td className="table-actions">
              {photo.status === "failed" && (
                <button type="button" className="secondary button-small" disabled={retryingId === photo.id} onClick={() => void retry(photo)}>
                  Retry
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
