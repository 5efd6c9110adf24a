// Client-safe: the words the share pages, the admin pages and the API share.

import type { ShareDownloadRight } from "@/src/db/database";

export type { ShareDownloadRight };

/** A link's state as its owner sees it; only "active" opens anything. */
export const SHARE_STATES = ["active", "expired", "used_up", "revoked"] as const;
export type ShareState = (typeof SHARE_STATES)[number];

/** What the per-link access log records. */
export const SHARE_ACCESS_EVENTS = [
  "visit", // a browser admitted to the link (counts against the view limit)
  "view_photo", // a photo page opened
  "download", // one photo downloaded (copy or original)
  "download_zip", // the whole-share ZIP started
  "password_refused", // a wrong password entered
  "selection_sent", // a visitor pressed "Send my selection"
] as const;
export type ShareAccessEvent = (typeof SHARE_ACCESS_EVENTS)[number];

/** Why a request to a share was refused; every one of them is a 401, and the page words them. */
export type ShareRefusal = "unknown" | "revoked" | "expired" | "used_up" | "password_required";

/** The default expiry of a new link; "never" must be chosen on purpose. */
export const DEFAULT_SHARE_EXPIRY_DAYS = 30;

/** The visitor's grant cookie, scoped to the link's path (src/shares/share-grant-cookie.ts). */
export const SHARE_GRANT_COOKIE = "cs_share_grant";
