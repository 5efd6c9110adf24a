import { z } from "zod";
import { schemaMatches } from "@/src/validation/schema-matches";
import type { MapClusters } from "./map-clusters.service";

// The map API's query and answer, described for the API reference. The query is read as text and
// checked by parseMapViewport (src/map/map-viewport.ts), so a wrong box is a 400 that says what.

export const mapClustersQuerySchema = z.object({
  bbox: z.string().optional().describe("west,south,east,north in degrees; west > east crosses the date line (170,-10,-170,10)."),
  zoom: z.string().optional().describe("A whole number from 0 (the whole world) to 20."),
});

const clusterMarkerSchema = z.object({
  kind: z.literal("cluster"),
  id: z.number().int(),
  latitude: z.number(),
  longitude: z.number(),
  count: z.number().int().describe("How many photos the group holds."),
  expansionZoom: z.number().int().describe("The zoom at which the group splits: where a click on it zooms to."),
  placeName: z.string().nullable().describe("The place its photos share (a town, else a country), as precisely as the caller learns it."),
});

const photoMarkerSchema = z.object({
  kind: z.literal("photo"),
  id: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  name: z.string().describe("What a screen reader says for the photo."),
  placeName: z.string().nullable(),
  thumbnailUrl: z.string().nullable().describe("The smallest variant, for the marker; null while none is made."),
  pageUrl: z.string(),
});

export const mapClustersResponseSchema = z.object({
  markers: z
    .array(z.discriminatedUnion("kind", [clusterMarkerSchema, photoMarkerSchema]))
    .describe("Groups and single photos in the box, each at the caller's location precision (rounded on the server); at most 400."),
  total: z.number().int().describe("How many of the caller's photos are on the map in all."),
});

schemaMatches<z.output<typeof mapClustersResponseSchema>, MapClusters>(true);
