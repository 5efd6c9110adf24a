import { usesSecureCookies } from "@/src/auth/session-cookie";
import { getEnv } from "@/src/config/env";
import { getDb } from "@/src/db/client";
import { AppError } from "@/src/errors/app-error";
import { routeMethods, withPublic } from "@/src/http/api-handler";
import { isSameOriginRequest } from "@/src/http/same-origin";
import { grantCookieHeader } from "@/src/shares/share-grant-cookie";
import { SHARE_GRANT_COOKIE } from "@/src/shares/share.types";
import { shareEnterQuerySchema, shareKeyParamsSchema } from "@/src/shares/share-visitor.schemas";
import { enterShare, shareReturnPath } from "@/src/shares/share-visits.service";

// Marks the way back from here, so a browser that keeps no cookies is told so instead of looping.
const ENTERED_MARK = "entered=1";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /s/<key>/api/enter?next=… – the page's "View photos" form: admits this browser, then goes back.
  // A POST, never a GET: link-preview bots and mail scanners follow links and redirects, they do
  // not submit forms, so they use up none of a link's views (SECURITY.md 59).
  POST: withPublic(
    async ({ params, query, request }) => {
      // Only the link's own page may post it (the browser carries no grant yet, so withPublic's check does not apply).
      if (!isSameOriginRequest(request.headers, new URL(getEnv().NEXTAUTH_URL).origin)) throw new AppError("FORBIDDEN", "Cross-site requests are not allowed.");
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
        "The form of a link's page (\"View photos\", sent by the page's script as soon as it is shown, or by a click without JavaScript): the browser is admitted (the view counts against the link's limit), given the grant cookie (Path=/s/{key}, HttpOnly) and sent back to `next` with 303. A link that cannot admit it sends it back without a cookie, where the page answers 401. Only this method admits: a GET of the link (a preview bot, a mail scanner) counts nothing.",
      params: shareKeyParamsSchema,
      query: shareEnterQuerySchema,
      response: { status: 303, description: "Back to the link's page, with Set-Cookie when admitted." },
      errors: ["FORBIDDEN"],
    },
  ),
});
