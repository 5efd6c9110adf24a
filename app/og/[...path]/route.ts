import { z } from "zod";
import { pathSegmentsSchema } from "@/src/validation/input-text";
import { getDb } from "@/src/db/client";
import { routeMethods, withPublic } from "@/src/http/api-handler";
import { answerOgImage } from "@/src/publish/og-image-response";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /og/<kind>/<id>/<hash>.jpg – a public photo's, album's, tag's or the site's Open Graph image;
  // GET /og/site/home/latest.jpg – the site's as it is now (the home page's og:image)
  GET: withPublic(async ({ params }) => answerOgImage(getDb(), params.path), {
    summary: "An Open Graph image (1200x630 JPEG)",
    description:
      "The URLs come from the og:image tags of public photo, album, tag and home pages. Made once from JPEG variants of public photos and kept in storage; the URL names its content, so it is cached for a year. /og/site/home/latest.jpg (the home page's) answers the site's current collage of its newest public photos and is shared as briefly as the gallery page. A URL of something that is not public, or of an image of it as it no longer is, answers 404.",
    params: z.object({ path: pathSegmentsSchema.describe("<kind>/<id>/<hash>.jpg (or site/home/latest.jpg), as an og:image tag gives it.") }),
    response: { status: 200, description: "The image.", contentType: "image/jpeg", headers: { ETag: "The image's content hash" } },
    errors: ["NOT_FOUND"],
  }),
});
