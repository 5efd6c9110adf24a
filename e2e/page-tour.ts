// The pages a person can reach, and the sizes and themes to look at them in; shared by the
// accessibility suite, which audits and photographs each visit (e2e/accessibility.spec.ts).

import type { TourIds } from "./seed-albums";
import { TOUR_SHARES } from "./seed-shares";

export type { TourIds };

export interface TourPage {
  /** Used in test titles and screenshot file names. */
  name: string;
  /** The path; a function of the seeded photo and album (seedTourAlbum) for their pages. */
  path: (ids: TourIds) => string;
  /** Only signed in: signed out, the page sends the visitor to sign in. */
  needsSignIn: boolean;
}

export const TOUR_PAGES: TourPage[] = [
  { name: "home", path: () => "/", needsSignIn: false },
  { name: "photo", path: ({ photoId }) => `/p/${photoId}`, needsSignIn: false },
  { name: "photo-in-album", path: ({ photoId, albumSlug }) => `/p/${photoId}?album=${albumSlug}`, needsSignIn: false },
  { name: "albums", path: () => "/albums", needsSignIn: false },
  { name: "album", path: ({ albumSlug }) => `/albums/${albumSlug}`, needsSignIn: false },
  { name: "album-nested", path: ({ childAlbumSlug }) => `/albums/${childAlbumSlug}`, needsSignIn: false },
  { name: "signin", path: () => "/signin", needsSignIn: false },
  // Once an admin exists (the e2e server creates one from the env), /setup is a 404 to everyone.
  { name: "setup", path: () => "/setup", needsSignIn: false },
  { name: "admin", path: () => "/admin", needsSignIn: true },
  { name: "admin-photos", path: () => "/admin/photos", needsSignIn: true },
  { name: "admin-upload", path: () => "/admin/upload", needsSignIn: true },
  { name: "admin-trash", path: () => "/admin/trash", needsSignIn: true },
  { name: "admin-albums", path: () => "/admin/albums", needsSignIn: true },
  { name: "admin-album", path: ({ albumId }) => `/admin/albums/${albumId}`, needsSignIn: true },
  { name: "admin-shares", path: () => "/admin/shares", needsSignIn: true },
  { name: "admin-share", path: ({ shareId }) => `/admin/shares/${shareId}`, needsSignIn: true },
  { name: "admin-users", path: () => "/admin/users", needsSignIn: true },
  { name: "admin-tokens", path: () => "/admin/tokens", needsSignIn: true },
  { name: "admin-settings", path: () => "/admin/settings", needsSignIn: true },
  { name: "admin-audit", path: () => "/admin/audit", needsSignIn: true },
  { name: "admin-share-selections", path: ({ shareId }) => `/admin/shares/${shareId}/selections`, needsSignIn: true },
  // seedPublicPhotos tags every seeded photo "Travel" (and some more), so both have photos to show.
  { name: "tags", path: () => "/tags", needsSignIn: false },
  { name: "tag", path: () => "/tags/travel", needsSignIn: false },
  { name: "admin-tags", path: () => "/admin/tags", needsSignIn: true },
  // People is off in the seeded site: the page says so (its grid is checked by tests/people.test.ts's API and by hand).
  { name: "people", path: () => "/people", needsSignIn: true },
  // Search: a query of two terms (chips, facets, results) and a query the parser refuses (its message, the help).
  { name: "search", path: () => `/search?q=${encodeURIComponent("tag:travel -tag:portrait")}`, needsSignIn: false },
  { name: "search-error", path: () => `/search?q=${encodeURIComponent("travel year:20x9")}`, needsSignIn: false },
  // Browse: the seeded photos' cameras, lenses and years (the first is an iPhone 6's from 2015).
  { name: "cameras", path: () => "/cameras", needsSignIn: false },
  { name: "camera", path: () => "/cameras/apple-iphone-6", needsSignIn: false },
  { name: "lenses", path: () => "/lenses", needsSignIn: false },
  { name: "lens", path: () => "/lenses/iphone-6-back-camera-4-15mm-f-2-2", needsSignIn: false },
  { name: "years", path: () => "/years", needsSignIn: false },
  { name: "year", path: () => "/years/2015", needsSignIn: false },
  // Places (countries, regions, towns) and where their names come from.
  { name: "places", path: () => "/places", needsSignIn: false },
  { name: "about", path: () => "/about", needsSignIn: false },
  { name: "not-found", path: () => "/no-such-page", needsSignIn: false },
  // Share links (seedTourShares): the gallery and a photo page, the password form, a turned-off link.
  { name: "share", path: () => `/s/${TOUR_SHARES.open}`, needsSignIn: false },
  { name: "share-photo", path: ({ photoId }) => `/s/${TOUR_SHARES.open}/p/${photoId}`, needsSignIn: false },
  { name: "share-password", path: () => `/s/${TOUR_SHARES.password}`, needsSignIn: false },
  { name: "share-refused", path: () => `/s/${TOUR_SHARES.revoked}`, needsSignIn: false },
  { name: "api-docs", path: () => "/api/docs", needsSignIn: false },
];

export const TOUR_SIZES = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

export const TOUR_THEMES = ["light", "dark"] as const;

export type SignInState = "signed-out" | "signed-in";

/** Every (page, signed-in state) pair worth a visit: signed-out only where the page allows it. */
export function tourVisits(): Array<{ page: TourPage; state: SignInState }> {
  return TOUR_PAGES.flatMap((page) => [
    ...(page.needsSignIn ? [] : [{ page, state: "signed-out" as const }]),
    { page, state: "signed-in" as const },
  ]);
}
