import { readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { AppError } from "@/src/errors/app-error";
import { routeMethods, withPublic } from "@/src/http/api-handler";
import { MAPLIBRE_VERSION } from "@/src/map/map-assets";

// Read once from the installed package (about 500 KB, 150 KB compressed), then kept.
let workerScript: Promise<string> | undefined;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/map/worker/{version} – maplibre-gl's worker script, for the map page
  GET: withPublic(
    async ({ params }) => {
      if (params.version !== MAPLIBRE_VERSION) throw new AppError("NOT_FOUND", `No map worker of version ${params.version}; this site has ${MAPLIBRE_VERSION}.`);
      workerScript ??= readFile(path.join(process.cwd(), "node_modules/maplibre-gl/dist/maplibre-gl-worker.mjs"), "utf8");
      return new Response(await workerScript, {
        headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=31536000, immutable" },
      });
    },
    {
      summary: "The map's drawing worker (maplibre-gl's own script, served from this site)",
      params: z.object({ version: z.string().max(40) }),
      response: { status: 200, description: "JavaScript, cached immutably (the version is in the URL).", schema: z.string() },
      errors: ["NOT_FOUND"],
    },
  ),
});
