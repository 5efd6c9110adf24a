import { getDb } from "@/src/db/client";
import { routeMethods, withViewer } from "@/src/http/api-handler";
import { mapClustersQuerySchema, mapClustersResponseSchema } from "@/src/map/map-api.schemas";
import { getMapClusters } from "@/src/map/map-clusters.service";
import { parseMapViewport } from "@/src/map/map-viewport";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/map/clusters?bbox=west,south,east,north&zoom=z – the map's markers in a viewport
  GET: withViewer(
    async ({ resolveViewer, query }) => {
      const viewport = parseMapViewport(query);
      const clusters = await getMapClusters(getDb(), await resolveViewer(), viewport);
      return Response.json(clusters, { headers: { "Cache-Control": "private, no-store" } });
    },
    {
      summary: "The map's groups of photos and single photos in a box",
      description:
        "Visitors and signed-in users alike: only photos the caller may list, and only those whose owner shows the location (their own and, " +
        "for admins, all), each at the precision the owner chose (city: rounded to 0.1°, region: 1°; country-precision photos are not on the map).",
      query: mapClustersQuerySchema,
      response: { status: 200, description: "The markers in the box.", schema: mapClustersResponseSchema },
      errors: ["BAD_REQUEST"],
    },
  ),
});
