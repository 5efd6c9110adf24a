import { ANONYMOUS_VIEWER, type SessionUser, toViewer, type Viewer } from "@/src/access/viewer";

/** The kinds of viewer every access table checks a rule against. */
export type ViewerKind = "anonymous" | "viewer" | "editor-owner" | "other editor" | "admin";

/**
 * The people of an access table (tests/photo-list-access.test.ts, tests/album-access.test.ts): an
 * editor who owns the rows, another editor, a member and an admin, with ids starting `prefix`, and
 * each kind of viewer they make.
 */
export function accessCast(prefix: string) {
  const user = (id: string, role: SessionUser["role"]): SessionUser => ({ id: `${prefix}-${id}`, email: `${prefix}-${id}@example.test`, name: `${prefix}-${id}`, role });
  const owner = user("owner", "editor");
  const otherEditor = user("other-editor", "editor");
  const member = user("member", "viewer");
  const admin = user("admin", "admin");
  const viewers: Array<[ViewerKind, Viewer]> = [
    ["anonymous", ANONYMOUS_VIEWER],
    ["viewer", toViewer(member)],
    ["editor-owner", toViewer(owner)],
    ["other editor", toViewer(otherEditor)],
    ["admin", toViewer(admin)],
  ];
  return { owner, otherEditor, member, admin, viewers, users: [owner, otherEditor, member, admin] };
}
