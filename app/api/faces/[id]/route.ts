import { getDb } from "@/src/db/client";
import { removeManualFace } from "@/src/faces/people.service";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { idParamsSchema } from "@/src/validation/input-text";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // DELETE /api/faces/[id] – remove a face drawn by hand on one of the caller's photos
  DELETE: withUser(
    async ({ viewer, params }) => {
      await removeManualFace(getDb(), viewer, params.id);
      return new Response(null, { status: 204 });
    },
    {
      role: "viewer",
      summary: "Remove a face drawn by hand on one of the caller's photos",
      description: "Detected faces are split off or their person hidden instead (detection would find them again).",
      params: idParamsSchema,
      response: { status: 204, description: "The face is removed." },
      errors: ["NOT_FOUND", "INVALID_INPUT"],
    },
  ),
});
