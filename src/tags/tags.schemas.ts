import { z } from "zod";
import { schemaMatches } from "@/src/validation/schema-matches";
import { photoSummarySchema } from "@/src/photos/photos-api.schemas";
import { MAXIMUM_TAGS_PER_PHOTO } from "./tag-name";
import type { TagView, TagWithCount } from "./tags.service";

// Each name is cleaned and checked by the service (empty or over 64 characters: 422 with the reason),
// so callers that skip HTTP get the same rules; here only sizes that no real tag reaches.
const tagNameInput = z.string().max(500).describe("A tag as typed; trimmed, NFC, whitespace collapsed. 1 to 64 characters.");

export const tagNamesSchema = z.array(tagNameInput).max(MAXIMUM_TAGS_PER_PHOTO);

export const setPhotoTagsSchema = z.strictObject({ names: tagNamesSchema.describe("Every tag the photo should have; [] removes them all.") });

export const bulkTagsSchema = z.strictObject({
  action: z.enum(["add", "remove"]),
  photoIds: z.array(z.string().max(200)).min(1).max(500),
  names: tagNamesSchema.min(1),
});

export const renameTagSchema = z.strictObject({ name: tagNameInput });

export const mergeTagsSchema = z.strictObject({
  sourceIds: z.array(z.string().max(200)).min(1).max(500).describe("The tags to merge away."),
  targetId: z.string().max(200).describe("The tag that remains, with every photo of the others."),
});

export const suggestTagsQuerySchema = z.object({
  q: z.string().max(500).default("").describe("What was typed so far."),
  limit: z.coerce.number().int().min(1).max(50).default(10),
});

export const tagSchema = z.object({
  id: z.string(),
  name: z.string().describe("As first spelled."),
  key: z.string().describe("NFC and case-folded: what makes spellings one tag."),
  path: z.string().describe("The tag's page, /tags/<key>."),
});

export const tagWithCountSchema = tagSchema.extend({ count: z.number().int().describe("Photos the caller may see with this tag.") });

export const tagListResponseSchema = z.object({ tags: z.array(tagSchema) });
export const tagCountListResponseSchema = z.object({ tags: z.array(tagWithCountSchema) });
export const tagResponseSchema = z.object({ tag: tagSchema });
export const mergedTagResponseSchema = z.object({ tag: tagWithCountSchema });
export const tagPhotosResponseSchema = z.object({
  tag: tagSchema,
  photos: z.array(photoSummarySchema),
  nextCursor: z.string().nullable(),
});

schemaMatches<z.output<typeof tagSchema>, TagView>(true);
schemaMatches<z.output<typeof tagWithCountSchema>, TagWithCount>(true);
