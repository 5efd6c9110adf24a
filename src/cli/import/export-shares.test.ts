import { describe, expect, it } from "vitest";
import type { ExportAlbum, ExportShare } from "@/src/export/export-api.schemas";
import { restoreExportShares, sharesRestoredText } from "./export-shares";
import type { SiteShare } from "./site-api";

// Share links from an export's shares.json, made again against a stand-in for the owner's API (the
// real round trip is in tests/export-round-trip.test.ts).

const SHARE: ExportShare = {
  ownerEmail: "owner@example.test",
  title: "For the family",
  message: "Hello",
  albumPath: ["Trips"],
  photos: ["a", "b"],
  download: "copy",
  allowZip: true,
  showExif: false,
  showLocation: true,
  allowPicks: true,
  pickLimit: 3,
  hasPassword: false,
  expiresAt: null,
  maxViews: 10,
  revoked: false,
  createdAt: "2024-01-01T00:00:00.000Z",
};
const TRIPS = { path: ["Trips"], photos: ["a", "b"] } as ExportAlbum;
const NOW = new Date("2026-06-01T00:00:00Z");

/** The owner's API as a list in memory: what was sent, and links that answer GET /api/shares. */
function fakeApi(existing: SiteShare[] = []) {
  const sent: Array<[string, string | null, Record<string, unknown>]> = [];
  let next = 0;
  return {
    sent,
    listShares: () => Promise.resolve(existing),
    createShare: (settings: Record<string, unknown>) => {
      next += 1;
      sent.push(["create", `s${next}`, settings]);
      return Promise.resolve({ id: `s${next}` });
    },
    updateShare: (id: string, change: Record<string, unknown>) => Promise.resolve(void sent.push(["update", id, change])),
  };
}

const context = (more: Partial<Parameters<typeof restoreExportShares>[2]> = {}) => ({
  uploaderId: "u1",
  photoIdByHash: new Map([
    ["a", "p-a"],
    ["b", "p-b"],
  ]),
  albums: [TRIPS],
  siteAlbumIdByPath: new Map([["Trips", "album-1"]]),
  now: NOW,
  ...more,
});

describe("an export's share links, made again", () => {
  it("keeps every setting; a link that held its whole album is made from the album, otherwise from its photos in order", async () => {
    const api = fakeApi();
    const restored = await restoreExportShares(api, [SHARE, { ...SHARE, title: "Just one", albumPath: ["Trips"], photos: ["b"] }], context());
    expect(restored).toMatchObject({ created: 2, locked: 0, failures: [] });
    expect(api.sent).toEqual([
      ["create", "s1", { albumId: "album-1", title: "For the family", message: "Hello", download: "copy", allowZip: true, showExif: false, showLocation: true, allowPicks: true, pickLimit: 3, maxViews: 10, expiresAt: null }],
      ["create", "s2", expect.objectContaining({ photoIds: ["p-b"], title: "Just one" })],
    ]);
  });

  it("locks a link that had a password with one nobody knows, and says so without printing any address", async () => {
    const api = fakeApi();
    const restored = await restoreExportShares(api, [{ ...SHARE, hasPassword: true }], context());
    expect(restored).toMatchObject({ created: 1, locked: 1 });
    const password = api.sent[0][2].password as string;
    expect(password).toMatch(/^[\w-]{43}$/);
    const text = sharesRestoredText(restored).join("\n");
    expect(text).toContain("1 share link asked for a password");
    expect(text).not.toContain(password);
    expect(text).not.toMatch(/\/s\//);
  });

  it("makes a revoked link, or one whose expiry passed, revoked", async () => {
    const api = fakeApi();
    await restoreExportShares(api, [{ ...SHARE, revoked: true }, { ...SHARE, expiresAt: "2026-01-01T00:00:00.000Z" }, { ...SHARE, expiresAt: "2027-01-01T00:00:00.000Z" }], context());
    expect(api.sent.filter(([kind]) => kind === "update")).toEqual([
      ["update", "s1", { revoked: true }],
      ["update", "s2", { revoked: true }],
    ]);
    expect(api.sent[2][2]).toMatchObject({ expiresAt: null });
    expect(api.sent[4][2]).toMatchObject({ expiresAt: "2027-01-01T00:00:00.000Z" });
  });

  it("makes no second copy on a rerun, counting alike links, and ignores other users' links an admin sees", async () => {
    const onSite = (ownerId: string): SiteShare => ({ ...SHARE, id: "x", albumId: "album-1", owner: { id: ownerId }, photoCount: 2, revokedAt: null });
    const api = fakeApi([onSite("u1"), onSite("someone-else")]);
    const restored = await restoreExportShares(api, [SHARE, SHARE], context());
    expect(restored).toMatchObject({ created: 1, present: 1 });
  });

  it("skips a link none of whose photos came in, and tells one missing some", async () => {
    const api = fakeApi();
    const restored = await restoreExportShares(api, [{ ...SHARE, photos: ["zzz"] }, { ...SHARE, albumPath: null, photos: ["a", "zzz"] }], context());
    expect(restored.created).toBe(1);
    expect(api.sent[0][2]).toMatchObject({ photoIds: ["p-a"] });
    expect(restored.notes.join("\n")).toMatch(/none of its photos are on the site; not made[\s\S]*1 of its photos are not on the site/);
  });
});
