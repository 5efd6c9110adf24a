import { loadApiRoutes } from "@/app/api-routes";
import { routeMethods, withPublic } from "@/src/http/api-handler";
import { getApiDocument } from "@/src/http/openapi/api-document";
import { renderApiReference } from "@/src/http/openapi/render-api-reference";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/docs – the API reference as one self-contained HTML page (no scripts, works offline)
  GET: withPublic(
    async () =>
      new Response(renderApiReference(getApiDocument(await loadApiRoutes())), {
        headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-cache" },
      }),
    {
      summary: "The API reference, readable",
      response: { status: 200, description: "An HTML page built from /api/openapi.json.", contentType: "text/html" },
    },
  ),
});
