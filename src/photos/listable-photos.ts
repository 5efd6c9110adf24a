import type { ExpressionBuilder } from "kysely";
import { signedInUser, type Viewer } from "@/src/access/viewer";
import type { Database, Visibility } from "@/src/db/database";
import { listableVisibilities } from "@/src/photos/photo-access";

/**
 * Who may see a photo in a list (search, facets, suggestions, browse pages): never trashed; others'
 * photos only finished and of the listable visibilities (public for visitors; public and members for
 * signed-in users; everything for admins); the viewer's own photos whatever their visibility or state.
 */
export interface PhotoListAccess {
  visibilities: Visibility[];
  viewerId: string | null;
}

export function photoListAccessOf(viewer: Viewer): PhotoListAccess {
  return { visibilities: listableVisibilities(viewer), viewerId: signedInUser(viewer)?.id ?? null };
}

/** What the anonymous visitor may list: feeds, the sitemap, OG images and oEmbed use only this. */
export const PUBLIC_LIST_ACCESS: PhotoListAccess = Object.freeze({ visibilities: ["public"], viewerId: null }) as PhotoListAccess;

/** The access rule as a condition on `photos`, for any query that lists or counts photos. */
export function whereListablePhotos<DB extends Database, TB extends keyof DB & "photos">(eb: ExpressionBuilder<DB, TB>, access: PhotoListAccess) {
  const photos = eb as unknown as ExpressionBuilder<Database, "photos">;
  const others =
    access.visibilities.length === 0
      ? photos.lit(false)
      : photos.and([photos("photos.visibility", "in", access.visibilities), photos("photos.status", "=", "ready")]);
  const mine = access.viewerId === null ? [] : [photos("photos.owner_id", "=", access.viewerId)];
  return photos.and([photos("photos.trashed_at", "is", null), photos.or([others, ...mine])]);
}
