import { getDb } from "@/src/db/client";
import { buildFeed } from "@/src/feeds/feeds.service";
import { albumFeedParamsSchema, feedResponse } from "@/src/feeds/feeds.schemas";
import { routeMethods, withPublic } from "@/src/http/api-handler";
import { answerMovedDocument, answerPublishedDocument } from "@/src/http/published-document";
import { decodedSegment } from "@/src/http/route-segment";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /albums/[slug]/feed.xml – a public album's newest public photos
  GET: withPublic(
    async ({ request, params }) => {
      const answer = await buildFeed(getDb(), { kind: "album", slug: decodedSegment(params.slug) }, "rss");
      return answer.kind === "moved" ? answerMovedDocument(answer.path) : answerPublishedDocument(request, answer.body, answer.contentType);
    },
    {
      summary: "A public album's RSS 2.0 feed",
      description: "The album's newest 50 public photos by date taken. Only a public album has a feed: any other answers 404, like an album that does not exist.",
      params: albumFeedParamsSchema,
      response: feedResponse("rss"),
      errors: ["NOT_FOUND"],
    },
  ),
});
