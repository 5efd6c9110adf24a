import {
  albumPhotoIdsSchema,
  albumPhotosAddedSchema,
  albumPhotosRemovedSchema,
  albumPhotosResponseSchema,
  listAlbumPhotosQuerySchema,
  moveAlbumPhotoSchema,
} from "@/src/albums/albums-api.schemas";
import { addPhotosToAlbum, listAlbumPhotosForViewer, movePhotoInAlbum, removePhotosFromAlbum } from "@/src/albums/albums.service";
import { getDb } from "@/src/db/client";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { idParamsSchema } from "@/src/validation/input-text";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/albums/[id]/photos – the album's photos the caller may see, in its sort (?cursor, ?limit)
  GET: withUser(async ({ viewer, params, query }) => Response.json(await listAlbumPhotosForViewer(getDb(), viewer, params.id, query)), {
    role: "viewer",
    scope: "photos:read",
    summary: "The album's photos the caller may see, in the album's order",
    params: idParamsSchema,
    query: listAlbumPhotosQuerySchema,
    response: { status: 200, description: "One page of photos.", schema: albumPhotosResponseSchema },
    errors: ["NOT_FOUND", "BAD_REQUEST"],
  }),

  // POST /api/albums/[id]/photos – add photos at the end (ones already in it are skipped)
  POST: withUser(async ({ user, params, body }) => Response.json(await addPhotosToAlbum(getDb(), user, params.id, body.photoIds)), {
    role: "viewer",
    scope: "photos:write",
    summary: "Add photos you may change to an album, at the end of its manual order",
    params: idParamsSchema,
    body: albumPhotoIdsSchema,
    response: { status: 200, description: "How many were added.", schema: albumPhotosAddedSchema },
    errors: ["NOT_FOUND", "CONFLICT"],
  }),

  // DELETE /api/albums/[id]/photos – take photos out (they stay in the library)
  DELETE: withUser(async ({ user, params, body }) => Response.json(await removePhotosFromAlbum(getDb(), user, params.id, body.photoIds)), {
    role: "viewer",
    scope: "photos:write",
    summary: "Take photos out of an album (the photos stay)",
    params: idParamsSchema,
    body: albumPhotoIdsSchema,
    response: { status: 200, description: "How many were taken out.", schema: albumPhotosRemovedSchema },
    errors: ["NOT_FOUND"],
  }),

  // PATCH /api/albums/[id]/photos – move one photo in the manual order
  PATCH: withUser(
    async ({ user, params, body }) => {
      const { photoId, ...to } = body;
      await movePhotoInAlbum(getDb(), user, params.id, photoId, to);
      return new Response(null, { status: 204 });
    },
    {
      role: "viewer",
      scope: "photos:write",
      summary: "Move a photo in the album's manual order: after or before another photo, or to a position",
      params: idParamsSchema,
      body: moveAlbumPhotoSchema,
      response: { status: 204, description: "Moved." },
      errors: ["NOT_FOUND", "CONFLICT"],
    },
  ),
});
