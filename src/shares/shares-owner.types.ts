// Client-safe: what the owner's API answers about a share and its access log, for the admin pages.

import type { ShareAccessEvent, ShareDownloadRight, ShareState } from "./share.types";

/** The most photos one share holds (a snapshot of an album or a library selection). */
export const MAX_SHARE_PHOTOS = 2000;

export interface ShareSummary {
  id: string;
  /** The full link to give visitors: NEXTAUTH_URL's origin + /s/{key}. */
  url: string;
  title: string;
  message: string;
  albumId: string | null;
  owner: { id: string; name: string };
  state: ShareState;
  photoCount: number;
  views: number;
  maxViews: number | null;
  downloads: number;
  lastVisitedAt: string | null;
  expiresAt: string | null;
  hasPassword: boolean;
  download: ShareDownloadRight;
  allowZip: boolean;
  showExif: boolean;
  showLocation: boolean;
  allowPicks: boolean;
  pickLimit: number | null;
  selectionLockedAt: string | null;
  revokedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ShareAccessLogEntry {
  id: string;
  createdAt: string;
  event: ShareAccessEvent;
  photoId: string | null;
  photoTitle: string | null;
  /** The visitor's address while it is kept; null once replaced by its keyed hash (after 30 days) or when unknown. */
  address: string | null;
  addressHashed: boolean;
  userAgent: string | null;
}
