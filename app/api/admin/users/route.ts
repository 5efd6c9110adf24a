import { routeMethods, withUser } from "@/src/http/api-handler";
import { createUserSchema, userListResponseSchema, userResponseSchema } from "@/src/users/users.schemas";
import { createUser, listUsersForAdmin } from "@/src/users/users.service";
import { getDb } from "@/src/db/client";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/admin/users – list every user
  GET: withUser(async ({ user }) => Response.json({ users: await listUsersForAdmin(getDb(), user) }), {
    role: "admin",
    summary: "Every user",
    response: { status: 200, description: "Every user, without password hashes.", schema: userListResponseSchema },
  }),

  // POST /api/admin/users – create a user with a password
  POST: withUser(
    async ({ body: input, user }) => {
      return Response.json({ user: await createUser(getDb(), user, input) }, { status: 201 });
    },
    {
      role: "admin",
      summary: "Create a user with a password",
      body: createUserSchema,
      response: { status: 201, description: "The new user.", schema: userResponseSchema },
      errors: ["CONFLICT"],
    },
  ),
});
