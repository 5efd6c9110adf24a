import { getDb } from "@/src/db/client";
import { exportPhotosQuerySchema, exportPhotosResponseSchema } from "@/src/export/export-api.schemas";
import { listExportPhotos } from "@/src/export/export.service";
import { routeMethods, withUser } from "@/src/http/api-handler";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/export/photos – the caller's photos (an admin's all=true: everyone's) with every field, by id
  GET: withUser(async ({ query, user }) => Response.json(await listExportPhotos(getDb(), user, query)), {
    role: "viewer",
    scope: "photos:read",
    summary: "For an export: your photos with every field you set, tags and album paths (an admin with all=true: every user's)",
    description: "What `contact-sheet export` reads. Never the trash. Fetch each photo's bytes from GET /api/photos/{id}/original.",
    query: exportPhotosQuerySchema,
    response: { status: 200, description: "One page of photos, by id.", schema: exportPhotosResponseSchema },
    errors: ["BAD_REQUEST", "FORBIDDEN"],
  }),
});
