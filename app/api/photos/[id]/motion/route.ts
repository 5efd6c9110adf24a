import { getDb } from "@/src/db/client";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { toStoredFileResponse } from "@/src/http/download-response";
import { COMPANION_RESPONSE } from "@/src/http/download-response.contract";
import { getCompanionForViewer } from "@/src/photos/companion-files.service";
import { idParamsSchema } from "@/src/validation/input-text";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/photos/[id]/motion – the clip split off a motion photo, as the phone wrote it, for its owner and admins only
  GET: withUser(async ({ viewer, params }) => toStoredFileResponse(await getCompanionForViewer(getDb(), viewer, params.id, "motion")), {
    role: "viewer",
    scope: "photos:read",
    summary: "The clip of a motion photo (owner and admins)",
    params: idParamsSchema,
    response: COMPANION_RESPONSE,
    errors: ["NOT_FOUND"],
  }),
});
