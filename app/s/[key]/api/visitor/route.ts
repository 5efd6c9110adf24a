import { usesSecureCookies } from "@/src/auth/session-cookie";
import { getDb } from "@/src/db/client";
import { routeMethods, withShareGrant } from "@/src/http/api-handler";
import { createVisitorSchema, shareKeyParamsSchema, visitorResponseSchema } from "@/src/shares/proofing-api.schemas";
import { createShareVisitor, getShareVisitor, SHARE_VISITOR_COOKIE, visitorCookieHeader } from "@/src/shares/proofing.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /s/[key]/api/visitor – this browser's visitor on the link (null before they give a name)
  GET: withShareGrant(
    async ({ share, request }) => Response.json(await getShareVisitor(getDb(), share, request.cookies.get(SHARE_VISITOR_COOKIE)?.value), { headers: { "Cache-Control": "private, no-store" } }),
    {
      summary: "The visitor this browser is on a proofing link, with their own picks and comments",
      description: "`visitor` is null until the browser gives a name (POST). A visitor cookie of another link or of a removed visitor counts as none. 404 when the link does not invite picks.",
      params: shareKeyParamsSchema,
      response: { status: 200, description: "The visitor (or null), the link's pick limit and whether the owner locked the selection.", schema: visitorResponseSchema },
      errors: ["NOT_FOUND"],
    },
  ),

  // POST /s/[key]/api/visitor – give a name (and maybe an e-mail) to pick and comment
  POST: withShareGrant(
    async ({ share, grant, body, params }) => {
      const { token, response } = await createShareVisitor(getDb(), share, body, new Date(), grant.visitId);
      return Response.json(response, { status: 201, headers: { "Set-Cookie": visitorCookieHeader(params.key, token, usesSecureCookies()), "Cache-Control": "private, no-store" } });
    },
    {
      summary: "Become a named visitor of a proofing link",
      description:
        "Sets the `cs_share_visitor` cookie (Path=/s/{key}, HttpOnly): a random token of which only the SHA-256 is stored. A new visitor every time, up to 100 on a link and 5 from one admitted browser (409 past either).",
      params: shareKeyParamsSchema,
      body: createVisitorSchema,
      response: { status: 201, description: "The new visitor.", schema: visitorResponseSchema, headers: { "Set-Cookie": "cs_share_visitor=<token>; Path=/s/<key>; HttpOnly; SameSite=Lax" } },
      errors: ["NOT_FOUND", "CONFLICT"],
    },
  ),
});
