import { z } from "zod";
import { VISIBILITIES } from "@/src/db/database";
import { photoSummarySchema } from "@/src/photos/photos-api.schemas";
import { schemaMatches } from "@/src/validation/schema-matches";
import { ALBUM_SLUG_PATTERN, ALBUM_SORTS, type AlbumSummary, MAX_ALBUM_PHOTOS_PER_REQUEST, MAX_ALBUM_SLUG_LENGTH } from "./albums.types";
import { identifierSchema, multilineText, singleLineText } from "@/src/validation/input-text";

// The albums API: what it takes (parsed by the handler wrapper, a failure is a 422) and what it
// answers (checked against the service's types here and against real answers by tests).

const title = singleLineText(200, { minimum: 1 });
const description = multilineText(5000);
const slug = z
  .string()
  .max(MAX_ALBUM_SLUG_LENGTH)
  .regex(ALBUM_SLUG_PATTERN, "Lower-case letters and digits in words joined by single hyphens.")
  .describe("Part of the album's address (/albums/{slug}); an old slug keeps answering with a redirect.");
const id = identifierSchema;

export const albumSortSchema = z
  .enum(ALBUM_SORTS)
  .describe("manual: the editor's order; taken-*: by date taken (upload time when unknown); uploaded-*: by upload time.");

export const createAlbumSchema = z.strictObject({
  title,
  slug: slug.optional().describe("Made from the title when absent."),
  description: description.optional(),
  visibility: z.enum(VISIBILITIES).optional().describe("private when absent."),
  parentId: id.nullable().optional().describe("The album to nest under (at most four levels deep)."),
  sort: albumSortSchema.optional(),
});

export const updateAlbumSchema = z
  .strictObject({
    title: title.optional(),
    slug: slug.optional(),
    description: description.optional(),
    visibility: z.enum(VISIBILITIES).optional(),
    parentId: id.nullable().optional().describe("null: a top-level album."),
    sort: albumSortSchema.optional(),
    coverPhotoId: id.nullable().optional().describe("A photo in the album; null: the first photo stands in."),
  })
  .refine((value) => Object.keys(value).length > 0, "Send at least one field to change.");

export const listAlbumsQuerySchema = z.object({
  parentId: id.optional().describe("The albums inside this one; the top level when absent."),
});

export const listAlbumPhotosQuerySchema = z.object({
  cursor: z.string().max(600).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(60),
});

export const albumPhotoIdsSchema = z.strictObject({
  photoIds: z.array(id).min(1).max(MAX_ALBUM_PHOTOS_PER_REQUEST).describe(`At most ${MAX_ALBUM_PHOTOS_PER_REQUEST}.`),
});

export const moveAlbumPhotoSchema = z.union([
  z.strictObject({ photoId: id, after: id.nullable().describe("null: to the start.") }),
  z.strictObject({ photoId: id, before: id.nullable().describe("null: to the end.") }),
  z.strictObject({ photoId: id, position: z.number().int().min(0).describe("0-based place in the manual order.") }),
]);

export const albumSummarySchema = z.object({
  id: z.string(),
  slug: z.string(),
  title: z.string(),
  description: z.string(),
  visibility: z.enum(VISIBILITIES),
  parentId: z.string().nullable(),
  sort: albumSortSchema,
  photoCount: z.number().int().describe("The photos the caller may see."),
  subAlbumPhotoCount: z.number().int().describe("The photos the caller may see in the albums inside this one (every level) that they may list, each photo once."),
  cover: photoSummarySchema.nullable().describe("A photo the caller may see: the chosen cover, else the first one, else (no photos of its own) the first sub-album's cover."),
  coverPhotoId: z.string().nullable().describe("The chosen cover; only for those who may edit the album."),
  canEdit: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const albumResponseSchema = z.object({ album: albumSummarySchema });
export const albumListResponseSchema = z.object({ albums: z.array(albumSummarySchema) });
export const albumPhotosResponseSchema = z.object({
  photos: z.array(photoSummarySchema),
  nextCursor: z.string().nullable().describe("Pass as ?cursor= for the next page; null on the last one."),
});
export const albumPhotosAddedSchema = z.object({ added: z.number().int() });
export const albumPhotosRemovedSchema = z.object({ removed: z.number().int() });

schemaMatches<z.output<typeof albumSummarySchema>, AlbumSummary>(true);
