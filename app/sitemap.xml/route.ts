import { getDb } from "@/src/db/client";
import { routeMethods, withPublic } from "@/src/http/api-handler";
import { answerPublishedDocument } from "@/src/http/published-document";
import { SITEMAP_RESPONSE_HEADERS } from "@/src/sitemap/sitemap.schemas";
import { buildSitemap } from "@/src/sitemap/sitemap.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /sitemap.xml – the public site for search engines, whoever asks
  GET: withPublic(async ({ request }) => answerPublishedDocument(request, await buildSitemap(getDb()), "application/xml; charset=utf-8"), {
    summary: "The sitemap",
    description:
      "The public pages, public albums, tags with public photos and every public photo (with an image entry of a public JPEG variant), the same for everyone. Past 50,000 URLs it is a sitemap index of /sitemaps/{n}.xml.",
    response: { status: 200, description: "A sitemaps.org 0.9 urlset (with Google image entries) or sitemap index.", contentType: "application/xml", headers: SITEMAP_RESPONSE_HEADERS },
  }),
});
