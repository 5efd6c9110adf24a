import { z } from "zod";
import { PHOTO_LABELS, VISIBILITIES } from "@/src/db/database";
import { libraryFilterSchema } from "./library-filters";

/** The most photos one request names by id. */
export const MAX_BULK_IDS = 1000;
/** The most photos "select all matching" acts on at once: past that, narrow the filter. */
export const MAX_BULK_FILTER_MATCHES = 10_000;

const photoIdsSchema = z
  .array(z.string().min(1).max(100))
  .min(1)
  .max(MAX_BULK_IDS)
  .describe(`The photos to act on, by id (at most ${MAX_BULK_IDS}).`);

const selection = {
  photoIds: photoIdsSchema.optional(),
  filter: libraryFilterSchema
    .optional()
    .describe(`Every photo of the library that matches (the caller's own; an admin's: everyone's), decided on the server; at most ${MAX_BULK_FILTER_MATCHES}.`),
};

/**
 * PATCH /api/photos: one change to many photos, all or nothing.
 * - `{ photoIds | filter, set: { visibility } }`: the same visibility for each;
 * - `{ photoIds | filter, set: { rating?, label? } }`: the owner's stars (0 takes them off) and colour label (null takes it off);
 * - `{ photoIds | filter, action: "trash" }`: move them to the trash;
 * - `{ each: [{ id, visibility }] }`: a visibility per photo (what Undo sends back).
 */
export const bulkPhotosSchema = z.union([
  z
    .strictObject({ ...selection, set: z.strictObject({ visibility: z.enum(VISIBILITIES) }) })
    .refine((value) => (value.photoIds === undefined) !== (value.filter === undefined), "Send either photoIds or filter."),
  z
    .strictObject({
      ...selection,
      set: z
        .strictObject({
          rating: z.number().int().min(0).max(5).optional().describe("0–5 stars; 0 takes the rating off."),
          label: z.enum(PHOTO_LABELS).nullable().optional().describe("A colour label; null takes it off."),
        })
        .refine((value) => value.rating !== undefined || value.label !== undefined, "Send a rating, a label or both."),
    })
    .refine((value) => (value.photoIds === undefined) !== (value.filter === undefined), "Send either photoIds or filter."),
  z
    .strictObject({ ...selection, action: z.literal("trash") })
    .refine((value) => (value.photoIds === undefined) !== (value.filter === undefined), "Send either photoIds or filter."),
  z.strictObject({
    each: z
      .array(z.strictObject({ id: z.string().min(1).max(100), visibility: z.enum(VISIBILITIES) }))
      .min(1)
      .max(MAX_BULK_IDS)
      .describe("A visibility for each photo, such as the ones a bulk change answered as `before` (Undo)."),
  }),
]);

export type BulkPhotosInput = z.output<typeof bulkPhotosSchema>;

export const bulkPhotosResponseSchema = z.object({
  action: z.enum(["visibility", "notes", "trash"]),
  matched: z.number().int().describe("How many photos the request named or its filter matched."),
  changed: z.number().int().describe("How many of them changed (the others already were so)."),
  message: z.string().describe('What changed, in words ("12 photos made public").'),
  photoIds: z.array(z.string()).describe("The photos that changed (for the trash: to restore them)."),
  photos: z
    .array(z.object({ id: z.string(), before: z.object({ visibility: z.enum(VISIBILITIES) }), after: z.object({ visibility: z.enum(VISIBILITIES) }) }))
    .describe("Each changed photo's visibility before and after (for visibility changes; empty for ratings, labels and the trash)."),
});

export type BulkPhotosResult = z.output<typeof bulkPhotosResponseSchema>;

export const photoIdsBodySchema = z.strictObject({ photoIds: photoIdsSchema });

export const emptyTrashBodySchema = z.strictObject({ photoIds: photoIdsSchema.optional() });

export const trashListQuerySchema = z.object({
  cursor: z.string().max(300).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(60),
});

export const trashedPhotoSchema = z.object({
  id: z.string(),
  title: z.string(),
  altText: z.string(),
  originalName: z.string(),
  visibility: z.enum(VISIBILITIES),
  thumbnailUrl: z.string().nullable().describe("Only for the trash page (it is served to the owner and admins only)."),
  trashedAt: z.string(),
  expiresAt: z.string().describe("When the photo and its files are deleted for good."),
});

export const trashListResponseSchema = z.object({
  photos: z.array(trashedPhotoSchema),
  nextCursor: z.string().nullable(),
  retentionDays: z.number().int(),
});

export const trashChangeResponseSchema = z.object({
  count: z.number().int().describe("How many photos were restored or deleted for good."),
  message: z.string(),
});

export type TrashedPhoto = z.output<typeof trashedPhotoSchema>;
