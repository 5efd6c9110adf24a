import { albumResponseSchema, updateAlbumSchema } from "@/src/albums/albums-api.schemas";
import { deleteAlbum, findAlbumByIdForViewer, updateAlbum } from "@/src/albums/albums.service";
import { getDb } from "@/src/db/client";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { idParamsSchema } from "@/src/validation/input-text";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/albums/[id] – one album, as far as the caller may see it
  GET: withUser(async ({ viewer, params }) => Response.json({ album: await findAlbumByIdForViewer(getDb(), viewer, params.id) }), {
    role: "viewer",
    scope: "photos:read",
    summary: "One album: its count and cover cover only the photos the caller may see",
    params: idParamsSchema,
    response: { status: 200, description: "The album.", schema: albumResponseSchema },
    errors: ["NOT_FOUND"],
  }),

  // PATCH /api/albums/[id] – title, slug, description, visibility, parent, sort, cover
  PATCH: withUser(async ({ body, user, params }) => Response.json({ album: await updateAlbum(getDb(), user, params.id, body) }), {
    role: "viewer",
    scope: "photos:write",
    summary: "Change an album's title, slug, description, visibility, parent, sort or cover",
    params: idParamsSchema,
    body: updateAlbumSchema,
    response: { status: 200, description: "The album as changed.", schema: albumResponseSchema },
    errors: ["NOT_FOUND", "CONFLICT"],
  }),

  // DELETE /api/albums/[id] – the album goes; its photos stay
  DELETE: withUser(
    async ({ user, params }) => {
      await deleteAlbum(getDb(), user, params.id);
      return new Response(null, { status: 204 });
    },
    {
      role: "viewer",
      scope: "photos:write",
      summary: "Delete an album (its photos stay; albums inside it move to the top level)",
      params: idParamsSchema,
      response: { status: 204, description: "The album is gone." },
      errors: ["NOT_FOUND"],
    },
  ),
});
