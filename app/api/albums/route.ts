import { albumListResponseSchema, albumResponseSchema, createAlbumSchema, listAlbumsQuerySchema } from "@/src/albums/albums-api.schemas";
import { createAlbum, listAlbumsForViewer } from "@/src/albums/albums.service";
import { getDb } from "@/src/db/client";
import { routeMethods, withUser } from "@/src/http/api-handler";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/albums – the albums the caller may list, at the top level or inside ?parentId
  GET: withUser(async ({ query, viewer }) => Response.json({ albums: await listAlbumsForViewer(getDb(), viewer, { parentId: query.parentId ?? null }) }), {
    role: "viewer",
    scope: "photos:read",
    summary: "The albums the caller may list, at the top level or inside one album",
    query: listAlbumsQuerySchema,
    response: { status: 200, description: "The albums, oldest first.", schema: albumListResponseSchema },
    errors: ["NOT_FOUND"],
  }),

  // POST /api/albums – a new album
  POST: withUser(async ({ body, user }) => Response.json({ album: await createAlbum(getDb(), user, body) }, { status: 201 }), {
    role: "editor",
    scope: "photos:write",
    summary: "Create an album",
    body: createAlbumSchema,
    response: { status: 201, description: "The album.", schema: albumResponseSchema },
    errors: ["NOT_FOUND", "CONFLICT"],
  }),
});
