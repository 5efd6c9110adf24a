import { getDb } from "@/src/db/client";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { createShareSchema, listSharesQuerySchema, shareListResponseSchema, shareResponseSchema } from "@/src/shares/shares-api.schemas";
import { createShare, listShares } from "@/src/shares/shares.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/shares – the caller's share links (an admin's: everyone's), newest first
  GET: withUser(async ({ query, user }) => Response.json(await listShares(getDb(), user, query)), {
    role: "editor",
    scope: "photos:read",
    summary: "The share links you manage (an admin: every link), newest first, with state, views, downloads and last visit",
    query: listSharesQuerySchema,
    response: { status: 200, description: "A page of links.", schema: shareListResponseSchema },
    errors: ["BAD_REQUEST"],
  }),

  // POST /api/shares – a new share link from an album or from photo ids
  POST: withUser(async ({ body, user }) => Response.json({ share: await createShare(getDb(), user, body) }, { status: 201 }), {
    role: "editor",
    scope: "photos:write",
    summary: "Make a share link from an album (a snapshot of its photos you may edit) or from photo ids; the photos' visibility does not change",
    body: createShareSchema,
    response: { status: 201, description: "The link, with its URL.", schema: shareResponseSchema },
    errors: ["NOT_FOUND"],
  }),
});
