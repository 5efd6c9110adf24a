import { usesSecureCookies } from "@/src/auth/session-cookie";
import { getDb } from "@/src/db/client";
import { routeMethods, withPublic } from "@/src/http/api-handler";
import { grantCookieHeader } from "@/src/shares/share-grant-cookie";
import { SHARE_GRANT_COOKIE } from "@/src/shares/share.types";
import { shareEnterQuerySchema, shareKeyParamsSchema } from "@/src/shares/share-visitor.schemas";
import { enterShare, shareReturnPath } from "@/src/shares/share-visits.service";

// Marks the way back from here, so a browser that keeps no cookies is told so instead of looping.
const ENTERED_MARK = "entered=1";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /s/<key>/enter?next=… – admits this browser to a link without a password, then goes back
  GET: withPublic(
    async ({ params, query, request }) => {
      const entry = await enterShare(getDb(), params.key, request.cookies.get(SHARE_GRANT_COOKIE)?.value, new Date());
      const back = shareReturnPath(params.key, query.next);
      const headers = new Headers({ "Cache-Control": "no-store", "X-Robots-Tag": "noindex, nofollow" });
      if (entry.kind === "admitted") {
        headers.set("Set-Cookie", grantCookieHeader(params.key, entry.cookieValue, usesSecureCookies()));
        headers.set("Location", `${back}${back.includes("?") ? "&" : "?"}${ENTERED_MARK}`);
      } else {
        // Already in, or refused: the page says which (a refusal is its 401).
        headers.set("Location", back);
      }
      return new Response(null, { status: 303, headers });
    },
    {
      summary: "Come in to a share link without a password",
      description:
        "The link's page sends a new browser here: it is admitted (the view counts against the link's limit), given the grant cookie (Path=/s/{key}, HttpOnly) and sent back to `next` with 303. A link that cannot admit it sends it back without a cookie, where the page answers 401.",
      params: shareKeyParamsSchema,
      query: shareEnterQuerySchema,
      response: { status: 303, description: "Back to the link's page, with Set-Cookie when admitted." },
    },
  ),
});
