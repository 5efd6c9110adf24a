import { z } from "zod";
import { identifierSchema, pathSegmentsSchema } from "@/src/validation/input-text";
import { schemaMatches } from "@/src/validation/schema-matches";
import type { SharePhotoPage, SharePhotoView } from "./share-gallery.service";

// The visitor API's questions and answers (/s/{key}/api/*), for the handlers and the API reference.

export const shareKeyParamsSchema = z.object({ key: identifierSchema.describe("The share link's key (24 characters).") });

export const sharePhotoParamsSchema = shareKeyParamsSchema.extend({ photoId: identifierSchema.pipe(z.string().max(64)) });

export const shareMediaParamsSchema = shareKeyParamsSchema.extend({
  storageKey: pathSegmentsSchema.describe("The variant's storage key: several path segments."),
});

export const sharePhotosQuerySchema = z.object({
  cursor: z.string().max(200).optional().describe("The `nextCursor` of the previous page."),
  limit: z.coerce.number().int().min(1).max(200).default(60),
});

export const shareEnterQuerySchema = z.object({
  next: z.string().max(2048).optional().describe("Where to go afterwards: a path under /s/{key}; anything else goes to the link's gallery."),
});

export const sharePasswordBodySchema = z.object({ password: z.string().max(1024) });

const shareVariantSchema = z.object({
  format: z.enum(["jpeg", "webp", "avif"]),
  width: z.number().int(),
  height: z.number().int(),
  url: z.string().describe("Under /s/{key}/media/: served only with this link's grant, `private, no-store`."),
});

export const sharePhotoSchema = z.object({
  id: z.string(),
  name: z.string().describe("What a screen reader says for the photo: its alt text or title, else its number in the link and, when the link shows EXIF, its date."),
  title: z.string(),
  caption: z.string(),
  altText: z.string(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  thumbhash: z.string().nullable(),
  dominantColor: z.string().nullable(),
  variants: z.array(shareVariantSchema),
  takenAt: z.string().nullable().describe("Null unless the link shows EXIF."),
  exif: z
    .object({
      cameraMake: z.string().nullable(),
      cameraModel: z.string().nullable(),
      lens: z.string().nullable(),
      focalLength: z.number().nullable(),
      aperture: z.number().nullable(),
      exposureTime: z.string().nullable(),
      iso: z.number().nullable(),
    })
    .nullable()
    .describe("Camera, lens and exposure; null unless the link shows EXIF. Never serial numbers."),
  location: z.object({ latitude: z.number(), longitude: z.number() }).nullable().describe("Null unless the link shows location."),
  placeName: z.string().nullable(),
  pageUrl: z.string(),
  downloadUrl: z.string().nullable().describe("Null when the link allows no downloads."),
  video: z
    .object({
      durationMs: z.number().int().nullable(),
      playableUrl: z.string().nullable().describe("The playable copy (H.264/AAC MP4, metadata stripped) under /s/{key}/media/; null until it is made."),
    })
    .nullable()
    .describe("A video's length and playable copy; null for a photo."),
  motionUrl: z.string().nullable().describe("A Live Photo's or motion photo's clip (no sound, no metadata) under /s/{key}/media/; null otherwise."),
});

export const sharePhotoPageSchema = z.object({
  photos: z.array(sharePhotoSchema),
  nextCursor: z.string().nullable().describe("Pass as ?cursor= for the next page; null on the last one."),
});

export const sharePhotoDetailSchema = z.object({
  photo: sharePhotoSchema,
  previousId: z.string().nullable(),
  nextId: z.string().nullable(),
  position: z
    .object({ index: z.number().int().min(1), total: z.number().int().min(1) })
    .describe("The photo's place among the photos the link opens now (the 3rd of 24), for the viewer's counter."),
});

schemaMatches<z.infer<typeof sharePhotoSchema>, SharePhotoView>(true);
schemaMatches<z.infer<typeof sharePhotoPageSchema>, SharePhotoPage>(true);
