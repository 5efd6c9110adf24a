import { getDb } from "@/src/db/client";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { idParamsSchema } from "@/src/validation/input-text";
import { shareResponseSchema, updateShareSchema } from "@/src/shares/shares-api.schemas";
import { deleteShare, getShare, updateShare } from "@/src/shares/shares.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/shares/[id] – one link (404 for someone else's unless admin)
  GET: withUser(async ({ user, params }) => Response.json({ share: await getShare(getDb(), user, params.id) }), {
    role: "editor",
    scope: "photos:read",
    summary: "One share link with its settings and stats",
    params: idParamsSchema,
    response: { status: 200, description: "The link.", schema: shareResponseSchema },
    errors: ["NOT_FOUND"],
  }),

  // PATCH /api/shares/[id] – settings, password, revoke, refresh from album
  PATCH: withUser(async ({ body, user, params }) => Response.json({ share: await updateShare(getDb(), user, params.id, body) }), {
    role: "editor",
    scope: "photos:write",
    summary: "Change a link's title, message, expiry, password, limits, rights or switches; revoke it for good; or take a new snapshot of its album",
    params: idParamsSchema,
    body: updateShareSchema,
    response: { status: 200, description: "The link as changed.", schema: shareResponseSchema },
    errors: ["NOT_FOUND"],
  }),

  // DELETE /api/shares/[id] – the link and its log go; the photos stay
  DELETE: withUser(
    async ({ user, params }) => {
      await deleteShare(getDb(), user, params.id);
      return new Response(null, { status: 204 });
    },
    {
      role: "editor",
      scope: "photos:write",
      summary: "Delete a share link with its visitors, picks and access log (the photos stay)",
      params: idParamsSchema,
      response: { status: 204, description: "The link is gone." },
      errors: ["NOT_FOUND"],
    },
  ),
});
