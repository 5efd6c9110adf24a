import type { Role } from "@/src/access/roles";

/** The signed-in user as every guard and service sees it: always read fresh from the database. */
export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: Role;
}

/**
 * Who is asking: nobody (a visitor) or a signed-in user; a share-link grant comes next. Resolved
 * once per request, by the handler wrapper (`withViewer`, `withUser`) or by `findCurrentViewer()`
 * for pages and server actions, and passed down; nothing below them reads cookies or headers.
 */
export type Viewer = { kind: "anonymous" } | { kind: "user"; user: SessionUser };

export const ANONYMOUS_VIEWER: Viewer = Object.freeze({ kind: "anonymous" });

export function toViewer(user: SessionUser | null): Viewer {
  return user === null ? ANONYMOUS_VIEWER : { kind: "user", user };
}

/** The signed-in user behind a viewer, or null for visitors. */
export function signedInUser(viewer: Viewer): SessionUser | null {
  return viewer.kind === "user" ? viewer.user : null;
}
