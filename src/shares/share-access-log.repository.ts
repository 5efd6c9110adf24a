import "server-only";
import type { DatabaseHandle } from "@/src/db/client";
import { currentRequestOrigin } from "@/src/audit/request-context";
import type { ShareAccessEvent } from "./share.types";

/**
 * Records one event in a link's access log, with the current request's address and user agent
 * (src/audit/request-context.ts; null outside a request). The address is hashed after 30 days.
 */
export async function recordShareAccess(
  db: DatabaseHandle,
  entry: { shareId: string; event: ShareAccessEvent; photoId?: string | null },
  now: Date,
): Promise<void> {
  const origin = currentRequestOrigin();
  await db
    .insertInto("share_access_log")
    .values({
      id: crypto.randomUUID(),
      share_id: entry.shareId,
      created_at: now.toISOString(),
      event: entry.event,
      photo_id: entry.photoId ?? null,
      address: origin?.address ?? null,
      user_agent: origin?.userAgent ?? null,
    })
    .execute();
}
