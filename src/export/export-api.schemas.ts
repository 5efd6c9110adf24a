import { z } from "zod";
import { ALBUM_SORTS, PHOTO_LABELS, SHARE_DOWNLOAD_RIGHTS, VISIBILITIES } from "@/src/db/database";

// What the three export lists answer (GET /api/export/photos, /albums, /shares): every field a
// photo, an album or a share link has that its owner set, and nothing secret (no share key, no
// password hash, no session or token). Photos are named across the lists by SHA-256, the one name
// that survives an export and an import into another site.

export const exportQuerySchema = z.object({
  all: z
    .enum(["true", "false"])
    .default("false")
    .transform((value) => value === "true")
    .describe("true: every user's library (admins only); otherwise the caller's own."),
});

export const exportPhotosQuerySchema = exportQuerySchema.extend({
  cursor: z.string().max(300).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(200),
});

export const exportPhotoSchema = z.object({
  id: z.string(),
  sha256: z.string(),
  originalName: z.string(),
  originalType: z.string(),
  originalSize: z.number().int(),
  mediaKind: z.enum(["photo", "video"]),
  status: z.enum(["processing", "ready", "failed"]),
  ownerEmail: z.string(),
  title: z.string(),
  caption: z.string(),
  altText: z.string(),
  takenAt: z.string().nullable().describe("As stored: the camera's local time, with its UTC offset when known."),
  uploadedAt: z.string(),
  location: z.object({ latitude: z.number(), longitude: z.number(), altitude: z.number().nullable() }).nullable(),
  showLocation: z.boolean(),
  place: z
    .object({
      city: z.string().nullable(),
      region: z.string().nullable(),
      countryCode: z.string().nullable(),
      timeZone: z.string().nullable(),
      source: z.enum(["automatic", "manual"]).nullable(),
    })
    .nullable(),
  visibility: z.enum(VISIBILITIES),
  rating: z.number().int(),
  label: z.enum(PHOTO_LABELS).nullable(),
  allowDownload: z.boolean().nullable().describe("null: the site's setting decides."),
  rotation: z.number().int(),
  tags: z.array(z.string()),
  albums: z.array(z.array(z.string())).describe("Each album holding it (in the export's scope), as its path of titles from the top level down."),
});

export const exportPhotosResponseSchema = z.object({
  photos: z.array(exportPhotoSchema),
  nextCursor: z.string().nullable().describe("Pass as ?cursor= for the next page; null on the last one."),
});

export const exportAlbumSchema = z.object({
  id: z.string(),
  parentId: z.string().nullable().describe("null: a top-level album, or one whose parent is outside the export's scope."),
  path: z.array(z.string()).describe("Its titles from the top level down, its own last."),
  ownerEmail: z.string(),
  title: z.string(),
  slug: z.string(),
  description: z.string(),
  visibility: z.enum(VISIBILITIES),
  sort: z.enum(ALBUM_SORTS),
  coverSha256: z.string().nullable().describe("The chosen cover, when it is in the export."),
  photos: z.array(z.string()).describe("Its photos' SHA-256 in the album's manual order (only photos in the export)."),
  createdAt: z.string(),
});

export const exportAlbumsResponseSchema = z.object({ albums: z.array(exportAlbumSchema) });

export const exportShareSchema = z.object({
  ownerEmail: z.string(),
  title: z.string(),
  message: z.string(),
  albumPath: z.array(z.string()).nullable().describe("The album it was made from, when that album is in the export."),
  photos: z.array(z.string()).describe("Its photos' SHA-256 in the link's order (only photos in the export)."),
  download: z.enum(SHARE_DOWNLOAD_RIGHTS),
  allowZip: z.boolean(),
  showExif: z.boolean(),
  showLocation: z.boolean(),
  allowPicks: z.boolean(),
  pickLimit: z.number().int().nullable(),
  hasPassword: z.boolean().describe("Whether it asks for a password; the password itself is never exported."),
  expiresAt: z.string().nullable(),
  maxViews: z.number().int().nullable(),
  revoked: z.boolean(),
  createdAt: z.string(),
});

export const exportSharesResponseSchema = z.object({ shares: z.array(exportShareSchema) });

export type ExportPhoto = z.output<typeof exportPhotoSchema>;
export type ExportAlbum = z.output<typeof exportAlbumSchema>;
export type ExportShare = z.output<typeof exportShareSchema>;
