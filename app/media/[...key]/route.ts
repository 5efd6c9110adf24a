import { getDb } from "@/src/db/client";
import { routeMethods, withViewer } from "@/src/http/api-handler";
import { serveMedia } from "@/src/media/serve-media";
import { findServableVariant } from "@/src/photos/servable-variant";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /media/<key> – a photo variant, if the viewer may see its photo
  GET: withViewer<{ key: string[] }>(async ({ request, params, resolveViewer }) => {
    const mediaPath = params.key.join("/");
    return serveMedia(request, mediaPath, () => findServableVariant(getDb(), resolveViewer, mediaPath));
  }),
});
