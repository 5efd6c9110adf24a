import { routeMethods, withUser } from "@/src/http/api-handler";
import { signOutEverywhere } from "@/src/users/users.service";
import { getDb } from "@/src/db/client";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // DELETE /api/admin/users/[id]/sessions – sign the user out everywhere
  DELETE: withUser<{ id: string }>(
    async ({ user, params }) => {
      await signOutEverywhere(getDb(), user, params.id);
      return new Response(null, { status: 204 });
    },
    { role: "admin" },
  ),
});
