import { z } from "zod";
import { AppError } from "@/src/errors/app-error";
import { routeMethods, withPublic } from "@/src/http/api-handler";
import { COUNTRY_SHAPES_VERSION, countryShapesGeoJson, DETAILED_COUNTRY_SHAPES_VERSION } from "@/src/map/country-shapes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/map/countries/{version} – the map's base layer: every country's outline as GeoJSON
  GET: withPublic(
    async ({ params }) => {
      const shapes = countryShapesGeoJson(params.version);
      if (shapes === null) {
        throw new AppError("NOT_FOUND", `No country shapes of version ${params.version}; this site has ${COUNTRY_SHAPES_VERSION} and ${DETAILED_COUNTRY_SHAPES_VERSION}.`);
      }
      // The version is in the URL, so the answer never changes: cached for good by browsers and CDNs.
      return new Response(await shapes, {
        headers: { "Content-Type": "application/geo+json", "Cache-Control": "public, max-age=31536000, immutable" },
      });
    },
    {
      summary: "Country outlines for the map (Natural Earth 1:110m, or 1:50m once zoomed in; GeoJSON)",
      params: z.object({ version: z.string().max(40) }),
      response: {
        status: 200,
        description: "A GeoJSON FeatureCollection of the countries, cached immutably.",
        schema: z.object({ type: z.literal("FeatureCollection"), features: z.array(z.unknown()) }),
      },
      errors: ["NOT_FOUND"],
    },
  ),
});
