import { routeMethods, withUser } from "@/src/http/api-handler";
import { parseJsonBody } from "@/src/http/request-body";
import { createUserSchema } from "@/src/users/users.schemas";
import { createUser, listUsersForAdmin } from "@/src/users/users.service";
import { getDb } from "@/src/db/client";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/admin/users – list every user
  GET: withUser(async ({ user }) => Response.json({ users: await listUsersForAdmin(getDb(), user) }), { role: "admin" }),

  // POST /api/admin/users – create a user with a password
  POST: withUser(
    async ({ request, user }) => {
      const input = await parseJsonBody(request, createUserSchema);
      return Response.json({ user: await createUser(getDb(), user, input) }, { status: 201 });
    },
    { role: "admin" },
  ),
});
