import { z } from "zod";

export const sitemapPartParamsSchema = z.object({
  part: z.string().regex(/^[1-9]\d{0,5}\.xml$/, "A part is named by its number: 1.xml, 2.xml…").describe("The part's number and .xml, from 1."),
});

export const SITEMAP_RESPONSE_HEADERS = { ETag: "A hash of the body (If-None-Match answers 304)", "Cache-Control": "public, max-age=300" };
