import { routeMethods, withPublic } from "@/src/http/api-handler";
import { createFirstAdmin } from "@/src/setup/first-admin.service";
import { setupAdminSchema, setupResponseSchema } from "@/src/users/users.schemas";
import { getDb } from "@/src/db/client";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/setup – create the first admin with the one-time setup token
  POST: withPublic(
    async ({ body: { token, ...admin } }) => {
      const created = await createFirstAdmin(getDb(), token, admin);
      return Response.json({ id: created.id }, { status: 201 });
    },
    {
      summary: "Create the first admin with the one-time setup token",
      description: "Works once, with the token the server printed at its first start; closed as soon as an admin exists.",
      body: setupAdminSchema,
      response: { status: 201, description: "The first admin exists.", schema: setupResponseSchema },
      errors: ["NOT_FOUND", "CONFLICT"],
    },
  ),
});
