// Client-side helpers of the owner's share pages: the API calls and the words they show.

import { callApi } from "@/src/ui/api-client";
import type { ShareDownloadRight, ShareState } from "../share.types";
import { shareResponseSchema } from "../shares-api.schemas";
import type { ShareSummary } from "../shares-owner.types";

export type { ShareSummary };

/** The body of POST /api/shares or PATCH /api/shares/{id}, as the forms build it. */
export type ShareRequestBody = Record<string, unknown>;

export async function createShareRequest(body: ShareRequestBody): Promise<ShareSummary> {
  return (await callApi("/api/shares", { method: "POST", body }, shareResponseSchema)).share;
}

export async function updateShareRequest(id: string, body: ShareRequestBody): Promise<ShareSummary> {
  return (await callApi(`/api/shares/${encodeURIComponent(id)}`, { method: "PATCH", body }, shareResponseSchema)).share;
}

/** The same text on the server and in the browser (no locale or time zone), so hydration agrees. */
export function formatInstant(iso: string | null, fallback: string): string {
  return iso === null ? fallback : `${iso.slice(0, 16).replace("T", " ")} UTC`;
}

/** "3 / 10" or "3" when there is no limit. */
export function describeViews(share: Pick<ShareSummary, "views" | "maxViews">): string {
  return share.maxViews === null ? String(share.views) : `${share.views} / ${share.maxViews}`;
}

export const STATE_LABELS: Record<ShareState, string> = { active: "Active", expired: "Expired", used_up: "Used up", revoked: "Revoked" };

export const DOWNLOAD_RIGHTS = ["none", "copy", "original"] as const satisfies readonly ShareDownloadRight[];

export const DOWNLOAD_LABELS: Record<ShareDownloadRight, string> = {
  none: "No downloads",
  copy: "Full-size download copies",
  original: "Originals",
};

export function describePhotos(count: number): string {
  return `${count} ${count === 1 ? "photo" : "photos"}`;
}
