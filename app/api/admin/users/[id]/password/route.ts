import { routeMethods, withUser } from "@/src/http/api-handler";
import { parseJsonBody } from "@/src/http/request-body";
import { resetPasswordSchema } from "@/src/users/users.schemas";
import { resetPasswordByAdmin } from "@/src/users/users.service";
import { getDb } from "@/src/db/client";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/admin/users/[id]/password – set a new password and sign the user out everywhere
  POST: withUser<{ id: string }>(
    async ({ request, user, params }) => {
      const { password } = await parseJsonBody(request, resetPasswordSchema);
      await resetPasswordByAdmin(getDb(), user, params.id, password);
      return new Response(null, { status: 204 });
    },
    { role: "admin" },
  ),
});
