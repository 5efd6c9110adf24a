import { routeMethods, withUser } from "@/src/http/api-handler";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/upload – what the caller may upload (uploads themselves arrive with photo processing)
  GET: withUser(
    async ({ user }) => Response.json({ uploader: { id: user.id, role: user.role }, isAcceptingUploads: false }),
    { role: "editor" },
  ),
});
