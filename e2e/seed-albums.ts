import { type Browser, expect } from "@playwright/test";
import { E2E_BASE_URL, newAdminContext } from "./helpers";
import { seedTourShares } from "./seed-shares";

/** What the page tour's paths are made from: a seeded public photo, a public album holding the seeded photos, and a share link of it. */
export interface TourIds {
  photoId: string;
  albumId: string;
  albumSlug: string;
  childAlbumSlug: string;
  /** A share link made from the album (a new one per call), for the owner's share page. */
  shareId: string;
}

const TOUR_ALBUM = { title: "Lisbon in spring", slug: "tour-lisbon", description: "Trams, tiles and the light on the river, over four days in April." };
const TOUR_CHILD_ALBUM = { title: "Along the river", slug: "tour-lisbon-river", description: "" };

interface AlbumAnswer {
  album: { id: string; slug: string };
}

/**
 * A public album of the seeded photos with one public album inside it, made once per server run
 * as the e2e admin (a second call finds the first's by its slug), for the tour's album pages.
 */
export async function seedTourAlbum(browser: Browser, photoIds: string[]): Promise<TourIds> {
  const context = await newAdminContext(browser);
  const headers = { Origin: E2E_BASE_URL };
  try {
    async function ensure(fields: { title: string; slug: string; description: string }, parentId: string | null): Promise<string> {
      const created = await context.request.post("/api/albums", { headers, data: { ...fields, visibility: "public", parentId } });
      if (created.status() === 201) return ((await created.json()) as AlbumAnswer).album.id;
      expect(created.status(), await created.text()).toBe(409);
      const listed = await context.request.get(parentId ? `/api/albums?parentId=${parentId}` : "/api/albums");
      const { albums } = (await listed.json()) as { albums: Array<{ id: string; slug: string }> };
      const found = albums.find((album) => album.slug === fields.slug);
      expect(found, `the album ${fields.slug} exists`).toBeTruthy();
      return found!.id;
    }
    const albumId = await ensure(TOUR_ALBUM, null);
    const childId = await ensure(TOUR_CHILD_ALBUM, albumId);
    const added = await context.request.post(`/api/albums/${albumId}/photos`, { headers, data: { photoIds } });
    expect(added.status(), await added.text()).toBe(200);
    const addedToChild = await context.request.post(`/api/albums/${childId}/photos`, { headers, data: { photoIds: photoIds.slice(-2) } });
    expect(addedToChild.status(), await addedToChild.text()).toBe(200);
    const shared = await context.request.post("/api/shares", {
      headers,
      data: { albumId, message: "The photos from our walk along the river.", password: "tour-password", maxViews: 20, download: "copy", allowZip: true, allowPicks: true },
    });
    expect(shared.status(), await shared.text()).toBe(201);
    const shareId = ((await shared.json()) as { share: { id: string } }).share.id;
    await seedTourShares(photoIds);
    return { photoId: photoIds[0], albumId, albumSlug: TOUR_ALBUM.slug, childAlbumSlug: TOUR_CHILD_ALBUM.slug, shareId };
  } finally {
    await context.close();
  }
}
