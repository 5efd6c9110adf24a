import { AppError } from "@/src/errors/app-error";

/**
 * The part of the world a map asks about: `bbox=west,south,east,north` in degrees and a whole
 * `zoom` (0: the world in one 512 px tile … MAX_MAP_ZOOM). `west > east` is a box across the date
 * line (170,-10,-170,10 is 20° wide around 180°), as supercluster takes it; a box 360° wide or more
 * is the whole world. Anything else a person could type wrong is a 400 that says what.
 */
export interface MapViewport {
  west: number;
  south: number;
  east: number;
  north: number;
  zoom: number;
}

export const MAX_MAP_ZOOM = 20;
/** "-179.123456,-89.123456,179.123456,89.123456" is 43 characters; anything much longer is not a box. */
const MAX_BBOX_LENGTH = 200;
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

function refuse(message: string): never {
  throw new AppError("BAD_REQUEST", message);
}

function degrees(text: string, name: string, limit: number): number {
  if (!NUMBER.test(text.trim())) refuse(`The bbox's ${name} is not a number of degrees.`);
  const value = Number(text);
  if (!Number.isFinite(value) || Math.abs(value) > limit) refuse(`The bbox's ${name} must be between -${limit} and ${limit} degrees.`);
  return value;
}

/** The viewport a query's `bbox` and `zoom` name, or a 400 naming what is wrong with them. */
export function parseMapViewport(query: { bbox?: string; zoom?: string }): MapViewport {
  if (query.bbox === undefined || query.bbox === "") refuse("Give the bbox as west,south,east,north in degrees.");
  if (query.bbox.length > MAX_BBOX_LENGTH) refuse(`The bbox is too long (${MAX_BBOX_LENGTH} characters at most).`);
  const parts = query.bbox.split(",");
  if (parts.length !== 4) refuse("Give the bbox as four numbers: west,south,east,north in degrees.");
  const west = degrees(parts[0], "west", 180);
  const south = degrees(parts[1], "south", 90);
  const east = degrees(parts[2], "east", 180);
  const north = degrees(parts[3], "north", 90);
  if (south > north) refuse("The bbox's south is north of its north: give west,south,east,north.");
  if (query.zoom === undefined || !/^\d{1,2}$/.test(query.zoom)) refuse(`Give the zoom as a whole number from 0 to ${MAX_MAP_ZOOM}.`);
  const zoom = Number(query.zoom);
  if (zoom > MAX_MAP_ZOOM) refuse(`The zoom must be from 0 to ${MAX_MAP_ZOOM}.`);
  return { west, south, east, north, zoom };
}
