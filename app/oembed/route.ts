import { getDb } from "@/src/db/client";
import { routeMethods, withPublic } from "@/src/http/api-handler";
import { oembedQuerySchema, oembedResponseSchema } from "@/src/publish/oembed.schemas";
import { answerOembed, OEMBED_CACHE_AGE } from "@/src/publish/oembed.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /oembed?url=… – oEmbed (https://oembed.com) for a public photo or album of this site
  GET: withPublic(
    async ({ query }) =>
      Response.json(await answerOembed(getDb(), query), { headers: { "Cache-Control": `public, max-age=${OEMBED_CACHE_AGE}` } }),
    {
      summary: "oEmbed for a public photo or album",
      description:
        "The oEmbed provider endpoint (https://oembed.com, section 2), found through the `application/json+oembed` link of public photo and album pages. A photo answers `type: photo` with a JPEG variant that fits maxwidth/maxheight; an album answers `type: rich` with a linked image of its photos. Anything else (another site, a private, members-only or unlisted photo or album, a share link) answers 404; a missing or malformed url or size 400; format=xml 501.",
      query: oembedQuerySchema,
      response: { status: 200, description: "The oEmbed answer.", schema: oembedResponseSchema },
      errors: ["BAD_REQUEST", "NOT_FOUND", "NOT_IMPLEMENTED"],
    },
  ),
});
