import { Readable } from "node:stream";
import { routeMethods, withUser } from "@/src/http/api-handler";
import { toAttachmentDisposition } from "@/src/http/content-disposition";
import { getOriginalForViewer } from "@/src/photos/photos.service";
import { getStorage } from "@/src/storage/app-storage";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/photos/[id]/original – the file as uploaded, always as a download, never shown inline
  GET: withUser<{ id: string }>(
    async ({ user, params }) => {
      const { photo } = await getOriginalForViewer(user, params.id);
      const object = await getStorage().read(photo.original_key);
      return new Response(Readable.toWeb(object.body) as ReadableStream, {
        headers: {
          "Content-Type": "application/octet-stream",
          "Content-Length": String(object.contentLength),
          "Content-Disposition": toAttachmentDisposition(photo.original_name),
          "X-Content-Type-Options": "nosniff",
          "Content-Security-Policy": "sandbox; default-src 'none'",
          "Cache-Control": "private, no-store",
        },
      });
    },
    { role: "viewer", scope: "photos:read" },
  ),
});
