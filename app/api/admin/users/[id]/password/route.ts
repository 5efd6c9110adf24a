import { routeMethods, withUser } from "@/src/http/api-handler";
import { idParamsSchema } from "@/src/validation/input-text";
import { resetPasswordSchema } from "@/src/users/users.schemas";
import { resetPasswordByAdmin } from "@/src/users/users.service";
import { getDb } from "@/src/db/client";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/admin/users/[id]/password – set a new password and sign the user out everywhere
  POST: withUser(
    async ({ body: { password }, user, params }) => {
      await resetPasswordByAdmin(getDb(), user, params.id, password);
      return new Response(null, { status: 204 });
    },
    {
      role: "admin",
      summary: "Set a user's password and sign them out everywhere",
      params: idParamsSchema,
      body: resetPasswordSchema,
      response: { status: 204, description: "The password is set; every earlier session has ended." },
      errors: ["NOT_FOUND"],
    },
  ),
});
