import { routeMethods, withUser } from "@/src/http/api-handler";
import { idParamsSchema } from "@/src/validation/input-text";
import { updateUserSchema, userResponseSchema } from "@/src/users/users.schemas";
import { deleteUserByAdmin, updateUserByAdmin } from "@/src/users/users.service";
import { getDb } from "@/src/db/client";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // PATCH /api/admin/users/[id] – change name, role or disabled
  PATCH: withUser(
    async ({ body: input, user, params }) => {
      return Response.json({ user: await updateUserByAdmin(getDb(), user, params.id, input) });
    },
    {
      role: "admin",
      summary: "Change a user's name, role or disabled state",
      params: idParamsSchema,
      body: updateUserSchema,
      response: { status: 200, description: "The user as changed.", schema: userResponseSchema },
      errors: ["NOT_FOUND", "CONFLICT"],
    },
  ),

  // DELETE /api/admin/users/[id] – delete a user
  DELETE: withUser(
    async ({ user, params }) => {
      await deleteUserByAdmin(getDb(), user, params.id);
      return new Response(null, { status: 204 });
    },
    {
      role: "admin",
      summary: "Delete a user",
      params: idParamsSchema,
      response: { status: 204, description: "The user is deleted." },
      errors: ["NOT_FOUND", "CONFLICT"],
    },
  ),
});
