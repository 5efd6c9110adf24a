import { describe, expect, it } from "vitest";
import type { Visibility } from "@/src/db/database";
import type { Role } from "@/src/access/roles";
import { ANONYMOUS_VIEWER, toViewer, type Viewer } from "@/src/access/viewer";
import { mayList, photoListAccessOf } from "./listable-photos";
import { canEditPhoto, canViewPhoto } from "./photo-access";

const signedIn = (id: string, role: Role): Viewer => toViewer({ id, role, email: `${id}@example.com`, name: id });
const anonymous = ANONYMOUS_VIEWER;
const owner = signedIn("owner", "editor");
const otherEditor = signedIn("other", "editor");
const member = signedIn("member", "viewer");
const admin = signedIn("admin", "admin");
const photo = (visibility: Visibility) => ({ owner_id: "owner", visibility });

describe("photo access", () => {
  it.each([
    // visibility, visitor, member, other editor, owner, admin
    ["public", true, true, true, true, true],
    ["unlisted", true, true, true, true, true],
    ["members", false, true, true, true, true],
    ["private", false, false, false, true, true],
  ] as const)("by link, a %s photo", (visibility, visitor, asMember, asOther, asOwner, asAdmin) => {
    expect([anonymous, member, otherEditor, owner, admin].map((viewer) => canViewPhoto(viewer, photo(visibility)))).toEqual([
      visitor,
      asMember,
      asOther,
      asOwner,
      asAdmin,
    ]);
  });

  it.each([
    ["public", true, true, true, true, true],
    ["unlisted", false, false, false, true, true],
    ["members", false, true, true, true, true],
    ["private", false, false, false, true, true],
  ] as const)("in lists, a finished %s photo (the whole rule: tests/photo-list-access.test.ts)", (visibility, visitor, asMember, asOther, asOwner, asAdmin) => {
    const finished = { ...photo(visibility), status: "ready" as const, trashed_at: null };
    expect([anonymous, member, otherEditor, owner, admin].map((viewer) => mayList(photoListAccessOf(viewer), finished))).toEqual([
      visitor,
      asMember,
      asOther,
      asOwner,
      asAdmin,
    ]);
  });

  it("lets only the owning editor and admins edit, whatever the visibility", () => {
    for (const visibility of ["public", "members", "private"] as const) {
      expect([anonymous, member, otherEditor, owner, admin].map((viewer) => canEditPhoto(viewer, photo(visibility)))).toEqual([
        false,
        false,
        false,
        true,
        true,
      ]);
    }
    expect(canEditPhoto(signedIn("owner", "viewer"), photo("public"))).toBe(false);
  });

});
