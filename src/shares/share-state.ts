import type { ShareRow } from "@/src/db/database";
import type { ShareState } from "./share.types";

type StateFields = Pick<ShareRow, "revoked_at" | "expires_at" | "max_views" | "view_count">;

/** Revoked before expired before used up: the owner's own act is the most useful thing to show. */
export function shareState(share: StateFields, now: Date): ShareState {
  if (share.revoked_at !== null) return "revoked";
  if (share.expires_at !== null && Date.parse(share.expires_at) <= now.getTime()) return "expired";
  if (share.max_views !== null && share.view_count >= share.max_views) return "used_up";
  return "active";
}
