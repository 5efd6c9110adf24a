import { routeMethods, withUser } from "@/src/http/api-handler";
import { idParamsSchema } from "@/src/validation/input-text";
import { signOutEverywhere } from "@/src/users/users.service";
import { getDb } from "@/src/db/client";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // DELETE /api/admin/users/[id]/sessions – sign the user out everywhere
  DELETE: withUser(
    async ({ user, params }) => {
      await signOutEverywhere(getDb(), user, params.id);
      return new Response(null, { status: 204 });
    },
    {
      role: "admin",
      summary: "Sign a user out everywhere",
      params: idParamsSchema,
      response: { status: 204, description: "Every session the user had has ended." },
      errors: ["NOT_FOUND"],
    },
  ),
});
