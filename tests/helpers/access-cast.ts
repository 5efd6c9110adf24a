import type { Kysely } from "kysely";
import { ANONYMOUS_VIEWER, type SessionUser, toViewer, type Viewer } from "@/src/access/viewer";
import type { Database } from "@/src/db/database";

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

/** Inserts the cast's users (password-less) into a fresh test database. */
export async function insertCastUsers(db: Kysely<Database>, users: SessionUser[], now: string): Promise<void> {
  for (const each of users) {
    await db.insertInto("users").values({ id: each.id, email: each.email, name: each.name, role: each.role, password_hash: null, disabled_at: null, session_version: 1, created_at: now, updated_at: now }).execute();
  }
}
