import { parseJsonBody } from "@/src/http/request-body";
import { routeMethods, withPublic } from "@/src/http/api-handler";
import { createFirstAdmin } from "@/src/setup/first-admin.service";
import { setupAdminSchema } from "@/src/users/users.schemas";
import { getDb } from "@/src/db/client";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /api/setup – create the first admin with the one-time setup token
  POST: withPublic(async ({ request }) => {
    const { token, ...admin } = await parseJsonBody(request, setupAdminSchema);
    const created = await createFirstAdmin(getDb(), token, admin);
    return Response.json({ id: created.id }, { status: 201 });
  }),
});
