import { describe, expect, it } from "vitest";
import type { Visibility } from "@/src/db/database";
import { canEditPhoto, canListPhoto, canViewPhoto, listableVisibilities, type Viewer } from "./photo-access";

const owner: Viewer = { id: "owner", role: "editor" };
const otherEditor: Viewer = { id: "other", role: "editor" };
const member: Viewer = { id: "member", role: "viewer" };
const admin: Viewer = { id: "admin", role: "admin" };
const photo = (visibility: Visibility) => ({ owner_id: "owner", visibility });

describe("photo access", () => {
  it.each([
    // visibility, visitor, member, other editor, owner, admin
    ["public", true, true, true, true, true],
    ["unlisted", true, true, true, true, true],
    ["members", false, true, true, true, true],
    ["private", false, false, false, true, true],
  ] as const)("by link, a %s photo", (visibility, visitor, asMember, asOther, asOwner, asAdmin) => {
    expect([null, member, otherEditor, owner, admin].map((viewer) => canViewPhoto(viewer, photo(visibility)))).toEqual([
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
  ] as const)("in lists, a %s photo", (visibility, visitor, asMember, asOther, asOwner, asAdmin) => {
    expect([null, member, otherEditor, owner, admin].map((viewer) => canListPhoto(viewer, photo(visibility)))).toEqual([
      visitor,
      asMember,
      asOther,
      asOwner,
      asAdmin,
    ]);
  });

  it("lets only the owning editor and admins edit, whatever the visibility", () => {
    for (const visibility of ["public", "members", "private"] as const) {
      expect([null, member, otherEditor, owner, admin].map((viewer) => canEditPhoto(viewer, photo(visibility)))).toEqual([
        false,
        false,
        false,
        true,
        true,
      ]);
    }
    expect(canEditPhoto({ id: "owner", role: "viewer" }, photo("public"))).toBe(false);
  });

  it("agrees with canListPhoto on what list queries may return", () => {
    for (const viewer of [null, member, otherEditor, admin]) {
      for (const visibility of ["public", "unlisted", "members", "private"] as const) {
        const other = { owner_id: "someone-else", visibility };
        expect(listableVisibilities(viewer).includes(visibility)).toBe(canListPhoto(viewer, other));
      }
    }
  });
});
