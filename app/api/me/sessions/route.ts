import { routeMethods, withUser } from "@/src/http/api-handler";
import { signOutEverywhere } from "@/src/users/users.service";
import { getDb } from "@/src/db/client";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // DELETE /api/me/sessions – sign yourself out on every device
  DELETE: withUser(
    async ({ user }) => {
      await signOutEverywhere(getDb(), user, user.id);
      return new Response(null, { status: 204 });
    },
    { role: "viewer", summary: "Sign yourself out on every device", response: { status: 204, description: "Every session you had has ended." } },
  ),
});
