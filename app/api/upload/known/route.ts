import { getDb } from "@/src/db/client";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { knownFilesRequestSchema, knownFilesResponseSchema } from "@/src/uploads/known-files.schemas";
import { findKnownFiles } from "@/src/uploads/known-files.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/upload/known – which of these SHA-256s the caller already has (before uploading them)
  POST: withUser(async ({ body, user }) => Response.json({ known: await findKnownFiles(getDb(), user, body.sha256) }), {
    role: "editor",
    scope: "upload",
    summary: "Which of these files (by SHA-256) the caller already has",
    description:
      "For importers: hash the files locally, ask here in batches, upload only the new ones. Only the caller's own photos count (those in their trash too), so the answer never tells whether another user holds the same bytes.",
    body: knownFilesRequestSchema,
    response: { status: 200, description: "The hashes the caller already has, with their photos.", schema: knownFilesResponseSchema },
  }),
});
