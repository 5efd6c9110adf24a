import { z } from "zod";

// The query is read as plain strings and checked by the service, so a malformed `url` or size is a
// 400 as the oEmbed spec has it (a schema failure would be the API's 422).
export const MAX_OEMBED_URL_LENGTH = 2048;

export const oembedQuerySchema = z.object({
  url: z.string().optional().describe("The absolute URL of a public photo (/p/<id>) or album (/albums/<slug>) on this site."),
  maxwidth: z.string().optional().describe("The largest width the consumer can show, in pixels (a positive whole number)."),
  maxheight: z.string().optional().describe("The largest height the consumer can show, in pixels (a positive whole number)."),
  format: z.string().optional().describe("`json` (the default). `xml` answers 501, as the spec has it."),
});

const common = {
  version: z.literal("1.0"),
  title: z.string(),
  author_name: z.string(),
  author_url: z.string(),
  provider_name: z.string(),
  provider_url: z.string(),
  cache_age: z.number().int(),
  thumbnail_url: z.string().optional().describe("A JPEG variant within maxwidth and maxheight; left out when none fits."),
  thumbnail_width: z.number().int().optional(),
  thumbnail_height: z.number().int().optional(),
};

export const oembedResponseSchema = z.union([
  z.object({
    ...common,
    type: z.literal("photo"),
    url: z.string().describe("A JPEG variant of the photo that fits maxwidth and maxheight."),
    width: z.number().int(),
    height: z.number().int(),
  }),
  z.object({
    ...common,
    type: z.literal("rich"),
    html: z.string().describe("A linked image of the album (its Open Graph collage), escaped, no script."),
    width: z.number().int(),
    height: z.number().int(),
  }),
]);

export type OembedResponse = z.infer<typeof oembedResponseSchema>;
export type OembedQuery = z.infer<typeof oembedQuerySchema>;
