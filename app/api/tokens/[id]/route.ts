import { revokeApiTokenOfUser } from "@/src/auth/api-tokens.service";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { idParamsSchema } from "@/src/validation/input-text";
import { getDb } from "@/src/db/client";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // DELETE /api/tokens/[id] – revoke one of your tokens (sessions only, like every token route)
  DELETE: withUser(
    async ({ user, params }) => {
      await revokeApiTokenOfUser(getDb(), user, params.id);
      return new Response(null, { status: 204 });
    },
    {
      role: "viewer",
      summary: "Revoke one of your API tokens",
      params: idParamsSchema,
      response: { status: 204, description: "The token stops working from the next request on." },
      errors: ["NOT_FOUND"],
    },
  ),
});
