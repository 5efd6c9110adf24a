import { routeMethods, withUser } from "@/src/http/api-handler";
import { parseJsonBody } from "@/src/http/request-body";
import { updateUserSchema } from "@/src/users/users.schemas";
import { deleteUserByAdmin, updateUserByAdmin } from "@/src/users/users.service";
import { getDb } from "@/src/db/client";

type Params = { id: string };

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // PATCH /api/admin/users/[id] – change name, role or disabled
  PATCH: withUser<Params>(
    async ({ request, user, params }) => {
      const input = await parseJsonBody(request, updateUserSchema);
      return Response.json({ user: await updateUserByAdmin(getDb(), user, params.id, input) });
    },
    { role: "admin" },
  ),

  // DELETE /api/admin/users/[id] – delete a user
  DELETE: withUser<Params>(
    async ({ user, params }) => {
      await deleteUserByAdmin(getDb(), user, params.id);
      return new Response(null, { status: 204 });
    },
    { role: "admin" },
  ),
});
