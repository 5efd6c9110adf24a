import { routeMethods, withPublic } from "@/src/http/api-handler";
import { serveMedia } from "@/src/photos/serve-media";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /media/<key> – a photo variant, checked against the viewer unless the photo is public
  GET: withPublic<{ key: string[] }>(async ({ request, params }) => serveMedia(request, params.key.join("/"))),
});
