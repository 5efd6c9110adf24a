import { getDb } from "@/src/db/client";
import { exportAlbumsResponseSchema, exportQuerySchema } from "@/src/export/export-api.schemas";
import { listExportAlbumsOf } from "@/src/export/export.service";
import { routeMethods, withUser } from "@/src/http/api-handler";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/export/albums – the caller's albums with nesting, manual order and cover
  GET: withUser(async ({ query, user }) => Response.json({ albums: await listExportAlbumsOf(getDb(), user, query) }), {
    role: "viewer",
    scope: "photos:read",
    summary: "For an export: your albums with their nesting, manual order and cover, photos named by SHA-256 (an admin with all=true: every user's)",
    query: exportQuerySchema,
    response: { status: 200, description: "Every album in scope, oldest first.", schema: exportAlbumsResponseSchema },
    errors: ["BAD_REQUEST", "FORBIDDEN"],
  }),
});
