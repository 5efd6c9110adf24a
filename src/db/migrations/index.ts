import type { Migration, MigrationProvider } from "kysely";
import * as initial from "./2026-11-22T0000-initial";
import * as photos from "./2026-11-22T0100-photos";
import * as apiTokens from "./2026-11-22T0200-api-tokens";
import * as uploadLocks from "./2026-11-23T0000-upload-locks";
import * as rateLimits from "./2026-11-24T0000-rate-limits";
import * as pendingUploads from "./2026-11-24T0100-pending-uploads";
import * as publicationAndDownloads from "./2026-11-24T0200-publication-and-downloads";
import * as scaleIndexes from "./2026-11-25T0000-scale-indexes";
import * as trash from "./2026-11-26T0000-trash";
import * as albums from "./2026-11-26T0100-albums";
import * as tags from "./2026-11-26T0200-tags";
import * as audit from "./2026-11-26T0300-audit";
import * as library from "./2026-11-26T0400-library";
import * as shares from "./2026-11-27T0000-shares";
import * as cameraLensSlugs from "./2026-11-28T0000-camera-lens-slugs";
import * as searchIndex from "./2026-11-28T0100-search-index";
import * as cameraDisplayNames from "./2026-11-29T0000-camera-display-names";
import * as shareVisitorGrants from "./2026-11-29T0300-share-visitor-grants";
import * as searchTrigrams from "./2026-11-29T0400-search-trigrams";
import * as searchGalleryOrder from "./2026-11-30T0200-search-gallery-order";
import * as storageUsage from "./2026-11-30T0700-storage-usage";
import * as photoRotation from "./2026-11-30T0800-photo-rotation";
import * as photoRatingLabel from "./2026-12-01T0200-photo-rating-label";
import * as video from "./2026-12-01T0400-video";
import * as photoCompanions from "./2026-12-01T0500-photo-companions";
import * as photoPlaces from "./2026-12-01T0600-photo-places";
import * as faces from "./2026-12-01T0700-faces";
import * as undatedPhotoIndexes from "./2026-12-01T0900-undated-photo-indexes";
import * as takenAtByOwner from "./2026-12-01T0910-taken-at-by-owner";
import * as livePhotos from "./2026-12-01T1300-live-photos";
import * as locationPrecision from "./2026-12-01T1500-location-precision";
import * as storageUsageCompanions from "./2026-12-01T1800-storage-usage-companions";
import * as placeIndexes from "./2026-12-02T0200-place-indexes";
import * as ownerNotesByOwner from "./2026-12-02T0400-owner-notes-by-owner";
import * as personSuggestionRejections from "./2026-12-02T0610-person-suggestion-rejections";
import * as personCentroids from "./2026-12-03T0100-person-centroids";
import * as fileTextByOwner from "./2026-12-03T0200-file-text-by-owner";
import * as cameraLensGroups from "./2026-12-04T0000-camera-lens-groups";
import * as faceConsent from "./2026-12-04T0100-face-consent";
import * as faceConsentText from "./2026-12-05T0100-face-consent-text";
import * as photoMapChanges from "./2026-12-05T0200-photo-map-changes";

/**
 * Every migration, by name. Listed by hand rather than read from disk because the server runs from
 * a bundle where the migrations folder does not exist. Names sort in the order they run.
 */
const migrations: Record<string, Migration> = {
  "2026-11-22T0000-initial": initial,
  "2026-11-22T0100-photos": photos,
  "2026-11-22T0200-api-tokens": apiTokens,
  "2026-11-23T0000-upload-locks": uploadLocks,
  "2026-11-24T0000-rate-limits": rateLimits,
  "2026-11-24T0100-pending-uploads": pendingUploads,
  "2026-11-24T0200-publication-and-downloads": publicationAndDownloads,
  "2026-11-25T0000-scale-indexes": scaleIndexes,
  "2026-11-26T0000-trash": trash,
  "2026-11-26T0100-albums": albums,
  "2026-11-26T0200-tags": tags,
  "2026-11-26T0300-audit": audit,
  "2026-11-26T0400-library": library,
  "2026-11-27T0000-shares": shares,
  "2026-11-28T0000-camera-lens-slugs": cameraLensSlugs,
  "2026-11-28T0100-search-index": searchIndex,
  "2026-11-29T0000-camera-display-names": cameraDisplayNames,
  "2026-11-29T0300-share-visitor-grants": shareVisitorGrants,
  "2026-11-29T0400-search-trigrams": searchTrigrams,
  "2026-11-30T0200-search-gallery-order": searchGalleryOrder,
  "2026-11-30T0700-storage-usage": storageUsage,
  "2026-11-30T0800-photo-rotation": photoRotation,
  "2026-12-01T0200-photo-rating-label": photoRatingLabel,
  "2026-12-01T0400-video": video,
  "2026-12-01T0500-photo-companions": photoCompanions,
  "2026-12-01T0600-photo-places": photoPlaces,
  "2026-12-01T0700-faces": faces,
  "2026-12-01T0900-undated-photo-indexes": undatedPhotoIndexes,
  "2026-12-01T0910-taken-at-by-owner": takenAtByOwner,
  "2026-12-01T1300-live-photos": livePhotos,
  "2026-12-01T1500-location-precision": locationPrecision,
  "2026-12-01T1800-storage-usage-companions": storageUsageCompanions,
  "2026-12-02T0200-place-indexes": placeIndexes,
  "2026-12-02T0400-owner-notes-by-owner": ownerNotesByOwner,
  "2026-12-02T0610-person-suggestion-rejections": personSuggestionRejections,
  "2026-12-03T0100-person-centroids": personCentroids,
  "2026-12-03T0200-file-text-by-owner": fileTextByOwner,
  "2026-12-04T0000-camera-lens-groups": cameraLensGroups,
  "2026-12-04T0100-face-consent": faceConsent,
  "2026-12-05T0100-face-consent-text": faceConsentText,
  "2026-12-05T0200-photo-map-changes": photoMapChanges,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
