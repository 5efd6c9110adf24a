import type { PhotoRow } from "@/src/db/database";
import type { SiteSettings } from "@/src/settings/site-settings.service";
import { signedInUser, type Viewer } from "@/src/access/viewer";
import { effectivePrecision, type LocationPrecision } from "./location-precision";
import { isOwnerOrAdmin } from "./photo-access";

/**
 * The one metadata policy: what a viewer may learn about a photo beyond its pixels, on every path
 * a byte leaves the server (API JSON, pages, downloads; share links, feeds and OG images later).
 *
 * - The owner and admins: everything, and the untouched original.
 * - Everyone else: camera, lens, exposure, date and colour profile; the location only when the owner
 *   shows it, and then only as precisely as the photo (else the site) says: exact, city, region or
 *   country (src/photos/location-precision.ts rounds the coordinates on the server); never serial numbers, maker notes, owner or contact fields, embedded thumbnails or
 *   edit history (src/images/exif-filter.ts keeps exactly that list in downloads). They download
 *   only where the site allows it or the photo says so, and then a download copy, never the original.
 *
 * - The owner's rating and colour label are notes to themselves: only the owner and admins see
 *   them, and only they can find photos by them (search's rating: and label:), whatever the photo's
 *   visibility. There is no setting to show them.
 *
 * Served variants carry no metadata at all but the colour profile, whoever asks.
 */
export interface MetadataPolicy {
  /** Owner or admin: every field, including the failure reason and the original. */
  seesEverything: boolean;
  /** Whether the location may appear in what this viewer gets (JSON, page, download copy). */
  seesLocation: boolean;
  /** How precisely: null when the location is not seen; "exact" for the owner and admins. */
  locationPrecision: LocationPrecision | null;
  /** The owner's rating and colour label: seen, filtered and searched by the owner and admins only. */
  seesOwnerNotes: boolean;
  /** What a download gives this viewer: the untouched original, a download copy, or nothing. */
  download: "original" | "copy" | "none";
}

type PolicyFields = Pick<PhotoRow, "owner_id" | "visibility" | "show_location" | "allow_download" | "location_precision">;

/** Whether people other than the owner may download this photo: its own choice, else the site's. */
export function isDownloadAllowed(photo: PolicyFields, site: SiteSettings): boolean {
  return photo.allow_download === null ? site.allowDownloads : photo.allow_download === 1;
}

/** The policy for a viewer who may see the photo (callers check that first, with canViewPhoto). */
export function getMetadataPolicy(viewer: Viewer, photo: PolicyFields, site: SiteSettings): MetadataPolicy {
  if (isOwnerOrAdmin(viewer, photo)) return { seesEverything: true, seesLocation: true, locationPrecision: "exact", seesOwnerNotes: true, download: "original" };
  const seesLocation = photo.show_location === 1;
  return {
    seesEverything: false,
    seesLocation,
    locationPrecision: seesLocation ? effectivePrecision(photo.location_precision, site.locationPrecision) : null,
    seesOwnerNotes: false,
    download: isDownloadAllowed(photo, site) ? "copy" : "none",
  };
}

/**
 * Whose rating and colour label a viewer may see, and so filter and search by: the same rule as
 * `seesOwnerNotes`, for a list rather than one photo. Visitors: nobody's. A user: their own. An
 * admin: every photo's (as the admin sees every field of every photo).
 */
export type OwnerNotesScope = { kind: "nobody" } | { kind: "own"; ownerId: string } | { kind: "all" };

export function ownerNotesScopeOf(viewer: Viewer): OwnerNotesScope {
  const user = signedInUser(viewer);
  if (user === null) return { kind: "nobody" };
  return user.role === "admin" ? { kind: "all" } : { kind: "own", ownerId: user.id };
}

/**
 * The same rule for lists and counts of places (/places), which cannot ask photo by photo: whose
 * places a viewer may learn among the photos they may list. Admins: every one; anyone else: those
 * whose owner shows the location (show_location = 1), and their own. A shown photo counts in its
 * country always, in its region from region precision up and in its town only from city precision
 * up (src/browse/places.service.ts), so /places never names more than the photo's page does.
 */
export function listedPlacesOf(viewer: Viewer): "all" | "shown-or-own" {
  return signedInUser(viewer)?.role === "admin" ? "all" : "shown-or-own";
}

/** How precisely the viewer learns a listed photo's location: exact for their own and, for admins, every one. */
export function listedPrecisionOf(
  viewer: Viewer,
  photo: Pick<PhotoRow, "owner_id" | "location_precision">,
  site: Pick<SiteSettings, "locationPrecision">,
): LocationPrecision {
  const user = signedInUser(viewer);
  if (user !== null && (user.role === "admin" || user.id === photo.owner_id)) return "exact";
  return effectivePrecision(photo.location_precision, site.locationPrecision);
}
