import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";
import type { Role } from "@/src/access/roles";

/**
 * Table types for Kysely. Timestamps are ISO-8601 UTC strings and flags are 0/1 integers on both
 * SQLite and PostgreSQL, so rows look the same whichever database is behind them.
 */
export interface Database {
  users: UsersTable;
  oauth_accounts: OAuthAccountsTable;
  revoked_sessions: RevokedSessionsTable;
  settings: SettingsTable;
  audit_log: AuditLogTable;
  photos: PhotosTable;
  photo_variants: PhotoVariantsTable;
  storage_usage: StorageUsageTable;
  photo_slug_groups: PhotoSlugGroupsTable;
  photo_map_changes: PhotoMapChangesTable;
  jobs: JobsTable;
  api_tokens: ApiTokensTable;
  upload_locks: UploadLocksTable;
  rate_limits: RateLimitsTable;
  pending_uploads: PendingUploadsTable;
  media_access_version: MediaAccessVersionTable;
  tags: TagsTable;
  photo_tags: PhotoTagsTable;
  albums: AlbumsTable;
  album_photos: AlbumPhotosTable;
  album_slugs: AlbumSlugsTable;
  shares: SharesTable;
  share_photos: SharePhotosTable;
  share_visitors: ShareVisitorsTable;
  share_feedback: ShareFeedbackTable;
  share_access_log: ShareAccessLogTable;
  photo_search: PhotoSearchTable;
  people: PeopleTable;
  faces: FacesTable;
  photo_face_scans: PhotoFaceScansTable;
  person_suggestion_rejections: PersonSuggestionRejectionsTable;
  person_centroids: PersonCentroidsTable;
  face_consents: FaceConsentsTable;
}


export interface UsersTable {
  id: string;
  email: string;
  name: string;
  role: Role;
  password_hash: string | null;
  /** Set when an admin disables the account; a disabled user cannot sign in or use a session. */
  disabled_at: string | null;
  /** Bumped by "sign out everywhere", password resets, disabling, enabling and role changes; tokens carrying an older value are refused. */
  session_version: number;
  created_at: string;
  updated_at: string;
}

export interface OAuthAccountsTable {
  provider: string;
  provider_account_id: string;
  user_id: string;
  created_at: string;
}

export interface RevokedSessionsTable {
  session_id: string;
  user_id: string;
  /** When the session would have expired anyway; after that the row can go. */
  expires_at: string;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface AuditLogTable {
  id: string;
  actor_id: string | null;
  action: string;
  target_id: string | null;
  details: string;
  created_at: string;
  /** The client address of the request that made the change; null when no request did (jobs, startup). */
  address: Generated<string | null>;
  user_agent: Generated<string | null>;
  /** What target_id names: "user", "photo", "token", "settings", ... */
  target_type: Generated<string | null>;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type AuditLogRow = Selectable<AuditLogTable>;

export const VISIBILITIES = ["public", "unlisted", "members", "private"] as const;
export type Visibility = (typeof VISIBILITIES)[number];
export type PhotoStatus = "processing" | "ready" | "failed";
export const PHOTO_ROTATIONS = [0, 90, 180, 270] as const;
export type PhotoRotation = (typeof PHOTO_ROTATIONS)[number];
/** The colour labels a photo may carry (Lightroom's and digiKam's five); src/import reads XMP into these. */
export const PHOTO_LABELS = ["red", "yellow", "green", "blue", "purple"] as const;
export type PhotoLabel = (typeof PHOTO_LABELS)[number];
export const MAXIMUM_RATING = 5;
export type VariantFormat = "jpeg" | "webp" | "avif";
export type PlaceSource = "automatic" | "manual";
/** How precisely people other than the owner learn where a photo was taken (src/photos/location-precision.ts). */
export const LOCATION_PRECISIONS = ["exact", "city", "region", "country"] as const;
export type LocationPrecision = (typeof LOCATION_PRECISIONS)[number];

/** The words for each location precision, in the admin's settings and the photo editor alike (client-safe, as VISIBILITIES is). */
export const LOCATION_PRECISION_LABELS: Record<LocationPrecision, string> = {
  exact: "Exact – the point where it was taken",
  city: "City – rounded to about 10 km",
  region: "Region – rounded to about 100 km",
  country: "Country – only the country, no point on the map",
};

export interface PhotosTable {
  id: string;
  owner_id: string;
  sha256: string;
  status: PhotoStatus;
  failure_reason: string | null;
  visibility: Visibility;
  original_key: string;
  /** The uploaded file's name, sanitised; shown and used for downloads, never for storage. */
  original_name: string;
  /** Decided from the bytes, never from the name or the declared type. */
  original_type: string;
  original_size: number;
  /** The upload's name without its extension, lower case: how a RAW finds its JPEG (src/photos/raw-pairing.ts). */
  pairing_name: string | null;
  /** The RAW of a RAW+JPEG pair, kept for the owner to download; the photo itself is the JPEG. */
  raw_companion_key: string | null;
  raw_companion_name: string | null;
  raw_companion_size: number | null;
  raw_companion_sha256: string | null;
  /** The clip split off a motion photo (src/photos/motion-clip.ts). */
  motion_clip_key: string | null;
  motion_clip_size: number | null;
  width: number | null;
  height: number | null;
  title: Generated<string>;
  caption: Generated<string>;
  alt_text: Generated<string>;
  taken_at: string | null;
  /** 1 when taken_at is the owner's own (the editor, the importer): processing again keeps it rather than reading the file's. */
  taken_at_by_owner: Generated<number>;
  camera_make: string | null;
  camera_model: string | null;
  lens: string | null;
  focal_length: number | null;
  aperture: number | null;
  exposure_time: string | null;
  iso: number | null;
  /** The camera's and lens's URL names (src/photos/camera-slug.ts), set with the EXIF summary; null when unknown. */
  camera_slug: Generated<string | null>;
  lens_slug: Generated<string | null>;
  /** Kept for the owner; shown to others only when show_location is 1. */
  gps_latitude: number | null;
  gps_longitude: number | null;
  gps_altitude: number | null;
  show_location: Generated<number>;
  /** How precisely others learn the location when it is shown (src/photos/location-precision.ts); null: the site's default. */
  location_precision: Generated<LocationPrecision | null>;
  /**
   * Where it was taken, in words (src/places): city, region, ISO country code and the time zone
   * at the point. Written by processing from the coordinates ("automatic") or by the owner
   * ("manual": processing then never touches them, nor the coordinates). Null without coordinates.
   */
  place_city: Generated<string | null>;
  place_region: Generated<string | null>;
  place_country_code: Generated<string | null>;
  place_time_zone: Generated<string | null>;
  place_source: Generated<PlaceSource | null>;
  /**
   * The owner's turn, degrees clockwise (0, 90, 180, 270), on top of the file's own orientation;
   * every variant is made turned by it, the original is never rewritten. width/height are the
   * photo's size after it.
   */
  rotation: Generated<PhotoRotation>;
  /** The owner's stars, 0-5 (0: none). Only the owner and admins see or search it (metadata policy). */
  rating: Generated<number>;
  /** The owner's colour label, or none. Only the owner and admins see or search it. */
  label: Generated<PhotoLabel | null>;
  /** 1 when the rating, or the label, is the owner's own (editor, bulk edit, importer), not the file's embedded XMP: processing keeps it. */
  rating_by_owner: Generated<number>;
  label_by_owner: Generated<number>;
  /** 1 when the title, or the caption, is the owner's own (editor, importer from a sidecar), not the file's XMP/IPTC: processing keeps it. */
  title_by_owner: Generated<number>;
  caption_by_owner: Generated<number>;
  /** 1 once the file's embedded keywords have been made its tags (first processing): processing again never adds back a tag the owner took off. */
  file_keywords_read: Generated<number>;
  thumbhash: string | null;
  dominant_color: string | null;
  /** Part of every variant URL; a new one whenever the photo stops being public, so old public URLs die. */
  publication_key: Generated<string>;
  /** Null: the site setting decides whether others may download; 0 or 1: this photo's own choice. */
  allow_download: number | null;
  sort_at: string;
  /** Null: not in the trash. Set: hidden from everyone everywhere; files kept until restored or purged. */
  trashed_at: Generated<string | null>;
  created_at: string;
  updated_at: string;
  /** A video is a photo's row with a poster frame for its variants (migration 2026-12-01T0400-video). */
  media_kind: Generated<MediaKind>;
  duration_ms: Generated<number | null>;
  video_codec: Generated<string | null>;
  /** The copy browsers play (H.264/AAC MP4, no metadata), under the variant prefix; null until the job made it. */
  playable_key: Generated<string | null>;
  /** PostgreSQL answers its bigint as a string. */
  playable_size: Generated<number | string | null>;
  /** Apple's content identifier of a Live Photo's still or MOV: how the two halves find each other (src/photos/live-photo-pairing.ts). */
  live_content_id: Generated<string | null>;
  /** The copy of the motion clip viewers play (H.264 MP4, no sound, no metadata), under the variant prefix; null until made. */
  motion_playable_key: Generated<string | null>;
  motion_playable_size: Generated<number | string | null>;
}

export type MediaKind = "photo" | "video";

/**
 * A photo's searchable text (title, caption, alt text, camera, lens, tag names, public albums'
 * titles), written only by the database's own triggers (migration 2026-11-28T0100-search-index).
 * SQLite indexes it in the FTS5 table photo_search_fts (rowid = its integer id); PostgreSQL keeps a
 * `document_vector` tsvector beside it. Both are read through src/search/search-query-builder.ts.
 */
export interface PhotoSearchTable {
  photo_id: string;
  document: string;
}

export interface PhotoVariantsTable {
  photo_id: string;
  format: VariantFormat;
  width: number;
  height: number;
  storage_key: string;
  byte_size: number;
}

/**
 * Bytes stored per owner (originals and variants), kept in step with photos and photo_variants by
 * the database's own triggers (migration 2026-11-30T0700-storage-usage); read by the dashboard.
 * PostgreSQL answers its bigints as strings.
 */
export interface StorageUsageTable {
  owner_id: string;
  photo_count: number;
  original_bytes: ColumnType<number | string, number, number>;
  variant_bytes: ColumnType<number | string, number, number>;
  /** A RAW kept beside its JPEG, a motion photo's clip, a video's playable copy (2026-12-01T1800). */
  companion_bytes: ColumnType<number | string, number | undefined, number>;
}

/**
 * The cameras and lenses of photos outside the trash, one row per spelling and per who may list them,
 * with their photo count; kept in step with photos by the database's own triggers (migration
 * 2026-12-04T0000-camera-lens-groups). A missing make or label is ''.
 */
export interface PhotoSlugGroupsTable {
  kind: "camera" | "lens";
  slug: string;
  make: string;
  label: string;
  visibility: Visibility;
  owner_id: string;
  status: PhotoStatus;
  photo_count: number;
}

/**
 * Photos changed in a way the map shows, whoever changed them: written only by triggers on photos
 * (migration 2026-12-05T0200-photo-map-changes), read by each process to patch its map indexes,
 * pruned after a day. `xact_id` is PostgreSQL's only (the writing transaction's id); bigints are
 * answered as strings there.
 */
export interface PhotoMapChangesTable {
  seq: ColumnType<number | string, never, never>;
  photo_id: string;
  changed_at: ColumnType<number | string, number, never>;
  xact_id: ColumnType<number | string | null, never, never>;
}

export type JobStatus = "queued" | "running" | "done" | "failed";

export interface JobsTable {
  id: string;
  kind: string;
  photo_id: string | null;
  /** Lower runs first. */
  priority: number;
  status: JobStatus;
  attempts: number;
  lease_expires_at: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

/** A tus upload being worked on by one request, on any app instance. */
export interface UploadLocksTable {
  upload_id: string;
  holder: string;
  expires_at: string;
  /** 1 when another request waits for this upload: the holder should end its request. */
  release_requested: number;
}

/** One row: its version moves whenever media that was public may no longer be served. */
export interface MediaAccessVersionTable {
  id: number;
  version: number;
}

/** A tus upload created and not yet finished, deleted or expired: what it reserves of its owner's room. */
export interface PendingUploadsTable {
  /** The tus store's id (with the store's key prefix on S3). */
  upload_id: string;
  /** Deleted with the user (foreign key, on delete cascade). */
  owner_id: string;
  /** Upload-Length. A bigint: PostgreSQL answers it as a string. */
  declared_bytes: ColumnType<number | string, number, number>;
  created_at: string;
}

export type PendingUploadRow = Selectable<PendingUploadsTable>;
export type NewPendingUploadRow = Insertable<PendingUploadsTable>;

export type PhotoRow = Selectable<PhotosTable>;
export type NewPhotoRow = Insertable<PhotosTable>;
export type PhotoVariantRow = Selectable<PhotoVariantsTable>;
export type JobRow = Selectable<JobsTable>;


/** A personal API token. Only the SHA-256 of its secret is kept; the secret is shown once. */
export interface ApiTokensTable {
  id: string;
  /** Deleted with the user (foreign key, on delete cascade). */
  user_id: string;
  name: string;
  /** Hex SHA-256 of the whole secret; looked up by equality (unique index). */
  token_hash: string;
  /** The secret's first characters (`cs_` and four more), shown in lists to tell tokens apart. */
  token_hint: string;
  /** Space-separated scopes, each one of API_TOKEN_SCOPES. */
  scopes: string;
  created_at: string;
  /** Updated at most about once a minute, not on every request. */
  last_used_at: string | null;
  /** Null: never expires. */
  expires_at: string | null;
}

export type ApiTokenRow = Selectable<ApiTokensTable>;
export type NewApiTokenRow = Insertable<ApiTokensTable>;

/** One fixed-window counter of a rate limit (src/auth/rate-limiter.ts). */
export interface RateLimitsTable {
  /** What is counted, e.g. "signin:address:203.0.113.7"; e-mail addresses in it are hashed. */
  key: string;
  count: number;
  /** When the window ends; from then on the row counts as zero and may be deleted. */
  resets_at: string;
}

export type RateLimitRow = Selectable<RateLimitsTable>;

/** A tag: shown as first spelled, unique by its key (NFC and case-folded, src/tags/tag-name.ts). */
export interface TagsTable {
  id: string;
  /** The first spelling used (NFC, trimmed, inner whitespace collapsed); renamed by admins only. */
  name: string;
  /** What makes spellings the same tag; unique, and what /tags/[tag] links use. */
  key: string;
  created_at: string;
}

/** One photo's tag. Deleted with the photo or the tag (foreign keys, on delete cascade). */
export interface PhotoTagsTable {
  photo_id: string;
  tag_id: string;
  /** A copy of the photo's sort_at (a trigger keeps it equal), so a tag's page walks an index in gallery order. */
  sort_at: string;
}

export type TagRow = Selectable<TagsTable>;
export type PhotoTagRow = Selectable<PhotoTagsTable>;
export const ALBUM_SORTS = ["manual", "taken-desc", "taken-asc", "uploaded-desc", "uploaded-asc"] as const;
export type AlbumSortColumn = (typeof ALBUM_SORTS)[number];

/** An album: photos chosen and ordered by an editor. It never widens who may see a photo. */
export interface AlbumsTable {
  id: string;
  /** Deleted with the user (foreign key, on delete cascade). */
  owner_id: string;
  /** Unique among current slugs; old ones live in album_slugs and redirect. */
  slug: string;
  title: string;
  description: Generated<string>;
  visibility: Visibility;
  /** Null: a top-level album. At most four levels deep, never a cycle (the service checks). */
  parent_id: string | null;
  sort: Generated<AlbumSortColumn>;
  /** The chosen cover; shown only to viewers who may see that photo. */
  cover_photo_id: string | null;
  created_at: string;
  updated_at: string;
}

/** A photo in an album. */
export interface AlbumPhotosTable {
  album_id: string;
  photo_id: string;
  /** Manual order: a fractional-indexing key, unique within the album, compared byte by byte. */
  order_key: string;
  /** Copies of the photo's sort_at (kept in step by a trigger) and created_at, for the other sorts' keyset. */
  photo_sort_at: string;
  photo_created_at: string;
  added_at: string;
}

/** A slug an album had before a rename. */
export interface AlbumSlugsTable {
  slug: string;
  album_id: string;
  created_at: string;
}

export type AlbumRow = Selectable<AlbumsTable>;
export type NewAlbumRow = Insertable<AlbumsTable>;
export type AlbumUpdate = Updateable<AlbumsTable>;
export type AlbumPhotoRow = Selectable<AlbumPhotosTable>;

export const SHARE_DOWNLOAD_RIGHTS = ["none", "copy", "original"] as const;
/** What a share's visitors may download: nothing, full-size download copies, or the originals (both under the metadata policy). */
export type ShareDownloadRight = (typeof SHARE_DOWNLOAD_RIGHTS)[number];

/** A share link (see the migration 2026-11-27T0000-shares for each column's story). */
export interface SharesTable {
  id: string;
  key: string;
  owner_id: string;
  title: string;
  message: Generated<string>;
  album_id: string | null;
  password_hash: string | null;
  grant_version: Generated<number>;
  expires_at: string | null;
  max_views: number | null;
  view_count: Generated<number>;
  download_count: Generated<number>;
  last_visited_at: string | null;
  download: Generated<ShareDownloadRight>;
  allow_zip: Generated<number>;
  show_exif: Generated<number>;
  show_location: Generated<number>;
  allow_picks: Generated<number>;
  pick_limit: number | null;
  selection_locked_at: string | null;
  revoked_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface SharePhotosTable {
  share_id: string;
  photo_id: string;
  position: number;
}

export interface ShareVisitorsTable {
  id: string;
  share_id: string;
  token_hash: string;
  name: string;
  email: string | null;
  /** The grant's visit id of the browser that named this visitor (null before 2026-11-29). */
  visit_id: string | null;
  sent_at: string | null;
  owner_seen_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ShareFeedbackTable {
  visitor_id: string;
  photo_id: string;
  share_id: string;
  is_picked: Generated<number>;
  comment: string | null;
  updated_at: string;
}

export interface ShareAccessLogTable {
  id: string;
  share_id: string;
  created_at: string;
  event: string;
  photo_id: string | null;
  address: string | null;
  address_is_hashed: Generated<number>;
  user_agent: string | null;
}

export type ShareRow = Selectable<SharesTable>;
export type NewShareRow = Insertable<SharesTable>;
export type ShareUpdate = Updateable<SharesTable>;
export type ShareVisitorRow = Selectable<ShareVisitorsTable>;
export type ShareFeedbackRow = Selectable<ShareFeedbackTable>;
export type ShareAccessLogRow = Selectable<ShareAccessLogTable>;

/** A person: one owner's group of faces (owner-scoped: nobody else's faces ever join it). */
export interface PeopleTable {
  id: string;
  owner_id: string;
  /** Null until the owner names them. */
  name: string | null;
  is_hidden: Generated<number>;
  cover_face_id: string | null;
  created_at: string;
  updated_at: string;
}

/** detected; manual: a box drawn by hand; tag: a person without a face (turned away), with an empty box. */
export const FACE_SOURCES = ["detected", "manual", "tag"] as const;
export type FaceSource = (typeof FACE_SOURCES)[number];

/** A face in a photo: a box in fractions of the upright photo; a detected one has a descriptor. */
export interface FacesTable {
  id: string;
  photo_id: string;
  person_id: string | null;
  box_left: number;
  box_top: number;
  box_width: number;
  box_height: number;
  score: number | null;
  /** 128 float32, little-endian. Never leaves the server. */
  descriptor: Uint8Array | null;
  source: FaceSource;
  created_at: string;
}

/** Which photos face detection has looked at, so a backfill resumes and progress can be shown. */
export interface PhotoFaceScansTable {
  photo_id: string;
  face_count: number;
  is_capped: Generated<number>;
  scanned_at: string;
}

export type PersonRow = Selectable<PeopleTable>;
export type FaceRow = Selectable<FacesTable>;

/** "Is this X?" answered no: `suggested_person_id` is never again suggested for `person_id`. */
export interface PersonSuggestionRejectionsTable {
  person_id: string;
  suggested_person_id: string;
  created_at: string;
}

/**
 * A person's centroid: the mean of their detected faces' descriptors (src/faces/person-centroids.ts).
 * Triggers mark it stale when a detected face joins or leaves them; the app recomputes it.
 */
/** A user's answer to people's consent text (issue 32); no row: not asked yet, which counts as no. */
export interface FaceConsentsTable {
  user_id: string;
  /** 1: agreed, their photos are looked at for faces; 0: declined. */
  agreed: number;
  decided_at: string;
  /** SHA-256 (hex) of the consent text answered (consentTextVersion): "agreed" counts only while it names the text asked now. */
  text_sha256: string | null;
}

export interface PersonCentroidsTable {
  person_id: string;
  /** 128 float32, little-endian; null when the person has no detected face. Never leaves the server. */
  centroid: Uint8Array | null;
  face_count: number;
  /** 1: faces changed since it was computed (compute it again before use). */
  is_stale: number;
  updated_at: string | null;
}
