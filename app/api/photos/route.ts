import { routeMethods, withUser } from "@/src/http/api-handler";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/photos – the photos the caller may see (none yet: photos arrive with uploads), and who is asking
  GET: withUser(
    async ({ user }) =>
      Response.json({ viewer: { id: user.id, name: user.name, role: user.role }, photos: [], nextCursor: null }),
    { role: "viewer" },
  ),
});
