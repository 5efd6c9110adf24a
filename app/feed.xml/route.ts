import { getDb } from "@/src/db/client";
import { buildFeed } from "@/src/feeds/feeds.service";
import { feedResponse } from "@/src/feeds/feeds.schemas";
import { routeMethods, withPublic } from "@/src/http/api-handler";
import { answerPublishedDocument } from "@/src/http/published-document";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /feed.xml – the newest public photos, whoever asks
  GET: withPublic(
    async ({ request }) => {
      const answer = await buildFeed(getDb(), { kind: "site" }, "rss");
      if (answer.kind !== "feed") throw new Error("The site's feed never moves.");
      return answerPublishedDocument(request, answer.body, answer.contentType);
    },
    {
      summary: "The site's RSS 2.0 feed",
      description: "The newest 50 public photos (public, processed, not in the trash), the same for everyone: title, caption, date (taken, else uploaded), a link to the photo's page as its id, and a JPEG variant about 1280 px wide (never the original).",
      response: feedResponse("rss"),
    },
  ),
});
