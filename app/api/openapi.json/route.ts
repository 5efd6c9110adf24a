import { z } from "zod";
import { loadApiRoutes } from "@/app/api-routes";
import { routeMethods, withPublic } from "@/src/http/api-handler";
import { getApiDocument } from "@/src/http/openapi/api-document";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/openapi.json – this API described as OpenAPI 3.1, generated from the handlers' wrappers
  GET: withPublic(async () => Response.json(getApiDocument(await loadApiRoutes()), { headers: { "Cache-Control": "no-cache" } }), {
    summary: "This API as an OpenAPI 3.1 document",
    response: {
      status: 200,
      description: "The OpenAPI 3.1 document (what you are reading).",
      schema: z.object({ openapi: z.string(), info: z.object({ title: z.string(), version: z.string() }), paths: z.record(z.string(), z.unknown()) }),
    },
  }),
});
