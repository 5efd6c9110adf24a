import { getDb } from "@/src/db/client";
import { buildFeed } from "@/src/feeds/feeds.service";
import { feedResponse, tagFeedParamsSchema } from "@/src/feeds/feeds.schemas";
import { routeMethods, withPublic } from "@/src/http/api-handler";
import { answerMovedDocument, answerPublishedDocument } from "@/src/http/published-document";
import { decodedSegment } from "@/src/http/route-segment";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /tags/[tag]/feed.xml – a tag's newest public photos
  GET: withPublic(
    async ({ request, params }) => {
      const answer = await buildFeed(getDb(), { kind: "tag", tag: decodedSegment(params.tag) }, "rss");
      return answer.kind === "moved" ? answerMovedDocument(answer.path) : answerPublishedDocument(request, answer.body, answer.contentType);
    },
    {
      summary: "A tag's RSS 2.0 feed",
      description: "The newest 50 public photos with the tag. A tag without public photos answers 404, like a tag that does not exist.",
      params: tagFeedParamsSchema,
      response: feedResponse("rss"),
      errors: ["NOT_FOUND"],
    },
  ),
});
