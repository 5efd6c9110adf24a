import { describe, expect, it } from "vitest";
import type { SessionUser } from "@/src/access/viewer";
import { mayListAlbum } from "@/src/albums/album-access";
import { mayList } from "@/src/photos/listable-photos";
import { exportScopeOf } from "./export-scope";

const member: SessionUser = { id: "member", email: "m@example.test", name: "M", role: "editor" };
const admin: SessionUser = { id: "admin", email: "a@example.test", name: "A", role: "admin" };
const photo = (owner_id: string, visibility: "public" | "members" | "private", status: "ready" | "processing" = "ready") => ({ owner_id, visibility, status, trashed_at: null });

describe("what an export may take out", () => {
  it("is a member's own photos and albums in any state, never another's, even public ones", () => {
    const scope = exportScopeOf(member, false);
    expect(mayList(scope.photos, photo("member", "private", "processing"))).toBe(true);
    expect(mayList(scope.photos, { ...photo("member", "public"), trashed_at: "2026-01-01" })).toBe(false);
    for (const visibility of ["public", "members", "private"] as const) expect(mayList(scope.photos, photo("other", visibility))).toBe(false);
    expect(mayListAlbum(scope.albums, { owner_id: "other", visibility: "public" })).toBe(false);
    expect(mayListAlbum(scope.albums, { owner_id: "member", visibility: "private" })).toBe(true);
    expect(scope.shareOwnerId).toBe("member");
  });

  it("is everyone's for an admin who asks, and refused to anyone else who asks", () => {
    const scope = exportScopeOf(admin, true);
    expect(mayList(scope.photos, photo("other", "private", "processing"))).toBe(true);
    expect(mayListAlbum(scope.albums, { owner_id: "other", visibility: "private" })).toBe(true);
    expect(scope.shareOwnerId).toBeNull();
    expect(() => exportScopeOf(member, true)).toThrow("Only an admin");
  });
});
