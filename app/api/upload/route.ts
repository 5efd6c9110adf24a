import { getEnv } from "@/src/config/env";
import { getDb } from "@/src/db/client";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { receiveMultipartFiles } from "@/src/uploads/multipart-files";
import { uploadLimitsResponseSchema, uploadResponseSchema } from "@/src/uploads/uploads-api.schemas";
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
    {
      role: "editor",
      scope: "upload",
      summary: "The limits an uploader works within",
      response: { status: 200, description: "Sizes, counts and accepted types.", schema: uploadLimitsResponseSchema },
    },
  ),

  // POST /api/upload – multipart, one or more files: 201 with each photo's id and status
  POST: withUser(
    async ({ request, user }) => {
      const photos = await uploadPhotos(getDb(), user, (limits) => receiveMultipartFiles(request, limits));
      return Response.json({ photos }, { status: 201 });
    },
    {
      role: "editor",
      scope: "upload",
      summary: "Upload one or more photos (multipart)",
      description:
        "Each file is streamed to disk and judged by its bytes: truncated files and pixel bombs are refused with 422, other types with 415, before anything is stored. The same bytes uploaded again answer with the existing photo.",
      rawBody: { contentType: "multipart/form-data", description: "One or more `file` fields, each an image file." },
      response: { status: 201, description: "Each photo's id and status (processing until its variants exist).", schema: uploadResponseSchema },
      errors: ["BAD_REQUEST", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", "INVALID_INPUT", "INSUFFICIENT_STORAGE"],
    },
  ),
});
