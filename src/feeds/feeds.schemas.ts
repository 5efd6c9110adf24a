import { z } from "zod";
import { identifierSchema } from "@/src/validation/input-text";
import type { SuccessResponse } from "@/src/http/handler-contract";
import { FEED_CONTENT_TYPES, type FeedFormat } from "./feeds.service.types";

export const albumFeedParamsSchema = z.object({ slug: identifierSchema.describe("The public album's slug (an old slug redirects).") });
export const tagFeedParamsSchema = z.object({ tag: identifierSchema.describe("The tag's key or any spelling of its name (another spelling redirects).") });

/** A feed's 200 answer in the API reference. */
export function feedResponse(format: FeedFormat): SuccessResponse {
  return {
    status: 200,
    description: format === "rss" ? "An RSS 2.0 feed (with Media RSS) of the newest public photos." : "A JSON Feed 1.1 of the newest public photos.",
    contentType: FEED_CONTENT_TYPES[format],
    headers: { ETag: "A hash of the body (If-None-Match answers 304)", "Cache-Control": "public, max-age=300" },
  };
}
