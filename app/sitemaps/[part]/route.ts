import { getDb } from "@/src/db/client";
import { routeMethods, withPublic } from "@/src/http/api-handler";
import { answerPublishedDocument } from "@/src/http/published-document";
import { SITEMAP_RESPONSE_HEADERS, sitemapPartParamsSchema } from "@/src/sitemap/sitemap.schemas";
import { buildSitemapPart } from "@/src/sitemap/sitemap.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /sitemaps/[n].xml – one part of a sitemap past 50,000 URLs
  GET: withPublic(
    async ({ request, params }) =>
      answerPublishedDocument(request, await buildSitemapPart(getDb(), Number.parseInt(params.part, 10)), "application/xml; charset=utf-8"),
    {
      summary: "One part of the sitemap",
      description: "Part n (from 1) of the sitemap index at /sitemap.xml: at most 50,000 URLs, read from where the part before ended.",
      params: sitemapPartParamsSchema,
      response: { status: 200, description: "A sitemaps.org 0.9 urlset with Google image entries.", contentType: "application/xml", headers: SITEMAP_RESPONSE_HEADERS },
      errors: ["NOT_FOUND"],
    },
  ),
});
