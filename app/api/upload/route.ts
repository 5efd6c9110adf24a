import { getEnv } from "@/src/config/env";
import { getDb } from "@/src/db/client";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { uploadPhotos } from "@/src/uploads/upload.service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/upload – the limits an uploader works within
  GET: withUser(
    async ({ user }) =>
      Response.json({
        uploader: { id: user.id, role: user.role },
        limits: { maxFileBytes: getEnv().MAX_UPLOAD_BYTES, maxFiles: getEnv().MAX_UPLOAD_FILES },
        acceptedTypes: ["image/jpeg", "image/png", "image/webp", "image/avif", "image/heic", "image/heif", "image/tiff", "image/gif"],
      }),
    { role: "editor", scope: "upload" },
  ),

  // POST /api/upload – multipart, one or more files: 201 with each photo's id and status
  POST: withUser(
    async ({ request, user }) => {
      const photos = await uploadPhotos(getDb(), user, request);
      return Response.json({ photos }, { status: 201 });
    },
    { role: "editor", scope: "upload" },
  ),
});
