import { hasRole } from "@/src/access/roles";
import { signedInUser, type Viewer } from "@/src/access/viewer";
import type { Visibility } from "@/src/db/database";

interface PhotoOwnership {
  owner_id: string;
  visibility: Visibility;
}

/** The photo's owner or an admin: who may see and do everything with it. */
export function isOwnerOrAdmin(viewer: Viewer, photo: PhotoOwnership): boolean {
  const user = signedInUser(viewer);
  return user !== null && (user.role === "admin" || user.id === photo.owner_id);
}

/**
 * Whether the viewer may open this photo by its id (page, API, variants). Public: everyone.
 * Unlisted: anyone with the link. Members: signed-in users. Private: its owner and admins.
 */
export function canViewPhoto(viewer: Viewer, photo: PhotoOwnership): boolean {
  switch (photo.visibility) {
    case "public":
    case "unlisted":
      return true;
    case "members":
      return viewer.kind === "user";
    case "private":
      return isOwnerOrAdmin(viewer, photo);
  }
}

/** Editors change and delete their own photos; admins any. Viewers never. */
export function canEditPhoto(viewer: Viewer, photo: PhotoOwnership): boolean {
  const user = signedInUser(viewer);
  return user !== null && hasRole(user.role, "editor") && isOwnerOrAdmin(viewer, photo);
}

/**
 * The visibilities of others' photos a list may show this viewer: never unlisted ones (reached by
 * their link only) except to admins. The whole list rule is src/photos/listable-photos.ts.
 */
export function listableVisibilities(viewer: Viewer): Visibility[] {
  const user = signedInUser(viewer);
  if (user === null) return ["public"];
  if (user.role === "admin") return ["public", "unlisted", "members", "private"];
  return ["public", "members"];
}
