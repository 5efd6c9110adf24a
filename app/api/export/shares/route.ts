import { getDb } from "@/src/db/client";
import { exportQuerySchema, exportSharesResponseSchema } from "@/src/export/export-api.schemas";
import { listExportSharesOf } from "@/src/export/export.service";
import { routeMethods, withUser } from "@/src/http/api-handler";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/export/shares – the caller's share links' settings, without keys or passwords
  GET: withUser(async ({ query, user }) => Response.json({ shares: await listExportSharesOf(getDb(), user, query) }), {
    role: "viewer",
    scope: "photos:read",
    summary: "For an export: your share links' settings and photos, never their keys or password hashes (an admin with all=true: every user's)",
    query: exportQuerySchema,
    response: { status: 200, description: "Every link in scope, oldest first.", schema: exportSharesResponseSchema },
    errors: ["BAD_REQUEST", "FORBIDDEN"],
  }),
});
