import { routeMethods, withPublic } from "@/src/http/api-handler";
import { answerPublishedDocument } from "@/src/http/published-document";
import { buildRobotsTxt } from "@/src/sitemap/sitemap.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /robots.txt – what crawlers may visit, and where the sitemap is
  GET: withPublic(async ({ request }) => answerPublishedDocument(request, buildRobotsTxt(), "text/plain; charset=utf-8"), {
    summary: "robots.txt",
    description: "Allows the public site; disallows /admin, /api, share links (/s/), /signin, /setup and /search; names the sitemap by its absolute URL.",
    response: { status: 200, description: "The robots exclusion rules.", contentType: "text/plain", headers: { "Cache-Control": "public, max-age=300" } },
  }),
});
