import { revokeApiTokenOfUser } from "@/src/auth/api-tokens.service";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { getDb } from "@/src/db/client";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // DELETE /api/tokens/[id] – revoke one of your tokens (sessions only, like every token route)
  DELETE: withUser<{ id: string }>(
    async ({ user, params }) => {
      await revokeApiTokenOfUser(getDb(), user, params.id);
      return new Response(null, { status: 204 });
    },
    { role: "viewer" },
  ),
});
