import { z } from "zod";
import { ROLES } from "@/src/access/roles";
import { LOCATION_PRECISIONS, PHOTO_LABELS, PHOTO_ROTATIONS, VISIBILITIES } from "@/src/db/database";
import { schemaMatches } from "@/src/validation/schema-matches";
import type { PhotoDetail, PhotoSummary } from "./photos.service";

// The photos API's answers, described for the API reference. Checked against the service's types
// at compile time (schemaMatches) and against real answers by tests/openapi.test.ts.

const photoStatusSchema = z.enum(["processing", "ready", "failed"]);

const photoVariantSchema = z.object({
  format: z.enum(["jpeg", "webp", "avif"]),
  width: z.number().int(),
  height: z.number().int(),
  url: z.string().describe("Where the variant is served, under /media/."),
});

export const photoSummarySchema = z.object({
  id: z.string(),
  status: photoStatusSchema,
  visibility: z.enum(VISIBILITIES),
  title: z.string(),
  altText: z.string(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  thumbhash: z.string().nullable().describe("A tiny placeholder image, base64."),
  dominantColor: z.string().nullable(),
  takenAt: z.string().nullable().describe("ISO 8601; without an offset when the camera recorded none."),
  variants: z.array(photoVariantSchema),
  originalName: z.string().optional().describe("The uploaded file name: only when listing the caller's own photos (?owner=me)."),
  video: z
    .object({
      durationMs: z.number().int().nullable().describe("Its length; null until it was read."),
      playableUrl: z.string().nullable().describe("The H.264/AAC MP4 every browser plays (metadata stripped), under /media/; null until it is made."),
    })
    .nullable()
    .describe("Set for a video (its variants are its poster frame's); null for a photo."),
  motionUrl: z
    .string()
    .nullable()
    .describe("A Live Photo's or motion photo's clip as viewers play it (H.264 MP4, no sound, no metadata), under /media/ with Range; null for any other photo or until it is made."),
});

export const photoDetailSchema = photoSummarySchema.extend({
  caption: z.string(),
  originalName: z.string(),
  failureReason: z.string().nullable().describe("Why processing failed; for the owner and admins only."),
  exif: z.object({
    cameraMake: z.string().nullable(),
    cameraModel: z.string().nullable(),
    lens: z.string().nullable(),
    focalLength: z.number().nullable().describe("Millimetres, as recorded."),
    aperture: z.number().nullable(),
    exposureTime: z.string().nullable().describe('"1/250" below one second, "2" or "2.5" (seconds) above.'),
    iso: z.number().nullable(),
  }),
  location: z
    .object({ latitude: z.number(), longitude: z.number(), altitude: z.number().nullable() })
    .nullable()
    .describe("For the owner and admins, or for everyone when the owner shows it."),
  placeName: z.string().nullable().describe('The place in words ("Arezzo, Tuscany, Italy"), worked out on the server or set by the owner; shown under the same rule as location.'),
  place: z
    .object({
      city: z.string().nullable(),
      region: z.string().nullable(),
      countryCode: z.string().nullable().describe("ISO 3166-1 alpha-2."),
      country: z.string().nullable(),
      timeZone: z.string().nullable().describe("IANA time zone at the point (Europe/Rome)."),
      source: z.enum(["automatic", "manual"]).describe("manual: set by the owner, never replaced by processing."),
    })
    .nullable()
    .describe("Where it was taken, in words (GeoNames, offline); shown under the same rule as location."),
  takenAtInstant: z.string().nullable().describe("The date taken in UTC, read with its recorded offset or the time zone of the place; null when neither is known or the place is not shown."),
  showLocation: z.boolean(),
  locationPrecision: z
    .enum(LOCATION_PRECISIONS)
    .nullable()
    .describe("The photo's own precision for others (exact, city: 0.1°, region: 1°, country: no coordinates), for the owner and admins; null: the site's setting, or not theirs."),
  allowDownload: z.boolean().nullable().describe("null: the site's setting decides."),
  downloadUrl: z.string().nullable().describe("Where this caller downloads the photo, or null when they may not."),
  rawDownloadUrl: z.string().nullable().describe("The RAW of a RAW+JPEG pair, for the owner and admins; null otherwise or when there is none."),
  motionClipUrl: z.string().nullable().describe("The clip of a motion photo (MP4), for the owner and admins; null otherwise or when there is none."),
  canEdit: z.boolean(),
  rotation: z.union(PHOTO_ROTATIONS.map((degrees) => z.literal(degrees))).describe("Degrees clockwise the owner turned the photo by, on top of its file's own orientation; the variants already show it."),
  rating: z.number().int().min(0).max(5).nullable().describe("The owner's stars, 0-5 (0: none); null for anyone but the owner and admins, who never see it."),
  label: z.enum(PHOTO_LABELS).nullable().describe("The owner's colour label; null when there is none, and always for anyone but the owner and admins."),
  cameraSlug: z.string().nullable().describe("The camera's URL name: its photos are at /cameras/{cameraSlug}. Null when unknown."),
  lensSlug: z.string().nullable().describe("The lens's URL name: its photos are at /lenses/{lensSlug}. Null when unknown."),
});

export const photoListResponseSchema = z.object({
  viewer: z.object({ id: z.string(), name: z.string(), role: z.enum(ROLES) }),
  photos: z.array(photoSummarySchema),
  nextCursor: z.string().nullable().describe("Pass as ?cursor= for the next page; null on the last one."),
});

export const photoResponseSchema = z.object({ photo: photoDetailSchema });

export const retryResponseSchema = z.object({ photo: z.object({ id: z.string(), status: z.literal("processing") }) });

schemaMatches<z.output<typeof photoSummarySchema>, PhotoSummary>(true);
schemaMatches<z.output<typeof photoDetailSchema>, PhotoDetail>(true);
