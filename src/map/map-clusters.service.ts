import "server-only";
import Supercluster from "supercluster";
import { signedInUser, type Viewer } from "@/src/access/viewer";
import type { DatabaseHandle } from "@/src/db/client";
import { getAppMetrics } from "@/src/metrics/metrics-registry";
import { type PhotoListAccess, photoListAccessOf } from "@/src/photos/listable-photos";
import { coordinatesAtPrecision, type LocationPrecision } from "@/src/photos/location-precision";
import { listedPlacesOf, listedPrecisionOf } from "@/src/photos/metadata-policy";
import { photoAccessibleName } from "@/src/photos/photo-accessible-name";
import { toMediaUrl } from "@/src/photos/photo-publication";
import { listVariants } from "@/src/photos/photos.repository";
import { siteLocationPrecision } from "@/src/photos/site-location-precision";
import { countryNameOf } from "@/src/places/country-name";
import { loadInSlices, yieldToEventLoop } from "./cluster-in-slices";
import { listPhotosChangedAfter, readPhotoMapChangesMark } from "./photo-map-changes.repository";
import { findMapPhotos, isOnTheMap, listGeotaggedPage, listMapPoints, type MapPointRow } from "./map-points.repository";
import { MAX_MAP_ZOOM, type MapViewport } from "./map-viewport";
import { refreshingMapIndexes } from "./refreshing-map-indexes";

// The map's clusters: the viewer's LISTABLE geotagged photos (the one list rule) whose location
// they may learn (the metadata policy), each at the viewer's precision (a city-precision photo sits
// at its rounded point; a country-precision photo is not a point at all), grouped by supercluster.
//
// Building the index reads every such photo, so one is kept per kind of viewer (visitors share
// one; each signed-in user has their own, as their own photos are exact). A change to photos in
// this process that names them patches it before the next answer (those photos read again, the
// rest re-clustered from memory only if a point moved, left or came); other changes in this process
// rebuild it. Another instance's changes are in the database's log of photos changed for the map
// (triggers on photos, src/map/photo-map-changes.repository.ts), read every FOLLOW_EVERY_MS while
// readers come, and patched in the same way behind the readers (refreshing-map-indexes.ts). A
// viewport then costs a lookup in the index, whatever the number of photos.
//
// A build or patch never holds the event loop for long: the rows are read READ_PAGE_ROWS at a time
// (better-sqlite3 reads synchronously: one statement for 100,000 photos held it about a second),
// and supercluster clusters one zoom level at a time (cluster-in-slices.ts), other requests running
// in between. Before the log, every instance with the map open read every photo again every 10 s to
// see the others' changes (2-3 s of work at 100,000 photos); now it reads the few photos that
// changed, and another instance's change reaches the clusters within FOLLOW_EVERY_MS and one patch.
// A single photo's marker never waits for that, as every answer asks its photos again (findMapPhotos).

/** One marker: a group of photos, or one photo. Coordinates are already at the viewer's precision. */
export type MapMarker =
  | { kind: "cluster"; id: number; latitude: number; longitude: number; count: number; expansionZoom: number; placeName: string | null }
  | { kind: "photo"; id: string; latitude: number; longitude: number; name: string; placeName: string | null; thumbnailUrl: string | null; pageUrl: string };

/** The box around every photo a viewer has on the map, at their precision: where the map opens. */
export interface MapBounds {
  west: number;
  south: number;
  east: number;
  north: number;
}

export interface MapClusters {
  markers: MapMarker[];
  /** How many photos the viewer has on the map in all (not only in view). */
  total: number;
}

interface PointProperties {
  photoId: string;
  /** The point at the viewer's precision, kept as computed: the index answers it back through a projection, a hair off. */
  latitude: number;
  longitude: number;
  /** The place as precisely as the viewer learns it ("Rome, Lazio, Italy" or just "Italy"). */
  place: string | null;
  country: string | null;
}

interface ClusterProperties {
  place: string | null;
  country: string | null;
}

/**
 * How often the log of other instances' changes is read while the map is used: one indexed query
 * of a few rows, and a patch only for the viewers whose points they moved.
 */
const FOLLOW_EVERY_MS = 5_000;
/** The log keeps a day (its migration prunes older rows); a process that has not read it for an hour builds again rather than trust it. */
const TRUST_FEED_FOR_MS = 60 * 60 * 1000;
/**
 * Rows read per statement in a full build, the event loop running between them: SQLite reads
 * synchronously, and on a loaded 2-core machine a page of 5,000 held it 216-760 ms (the one
 * statement before: 1.1-1.4 s); 2,000 keeps a page near a tenth of a second there.
 */
const READ_PAGE_ROWS = 2_000;
/** Markers are about 44 px; groups closer than this many pixels become one. */
const CLUSTER_RADIUS_PX = 60;
/** More than this many markers in one answer is a map nobody can read; the box is narrowed instead. */
const MAX_MARKERS = 400;

interface MapIndex {
  index: Supercluster<PointProperties, ClusterProperties>;
  /** Every photo in the index by id, for patching it when a few change. */
  points: Map<string, MapPoint>;
  total: number;
  bounds: MapBounds | null;
}

type MapPoint = GeoJSON.Feature<GeoJSON.Point, PointProperties>;

/**
 * What one photo on the map weighs in memory, its point and its share of the clusters: bench:places'
 * memory row holds 48 MB more for each viewer's index at its 100,000 photos (some 80,000 of them on
 * a member's map), about this much a photo.
 */
const MAP_INDEX_BYTES_PER_PHOTO = 600;
/**
 * At most this much for every viewer's index together, the least recently read going first: about
 * ten viewers' maps at 100,000 photos, all 200 at 1,000. Without it, memory grew by 48 MB for each
 * signed-in viewer who opened the map (bench:places, 2026-11-27: +586 MB held for 20 viewers, flat
 * from 12 on). A viewer whose index went builds it again on their next map (2-3 s at 100,000).
 */
const MAP_INDEXES_MAX_BYTES = 512 * 1024 * 1024;

const indexes = refreshingMapIndexes<MapIndex>({
  feed: { mark: readPhotoMapChangesMark, changedAfter: listPhotosChangedAfter },
  followEveryMs: FOLLOW_EVERY_MS,
  trustFeedForMs: TRUST_FEED_FOR_MS,
  maxEntries: 200,
  maxBytes: MAP_INDEXES_MAX_BYTES,
  sizeOf: (mapIndex) => mapIndex.points.size * MAP_INDEX_BYTES_PER_PHOTO,
  onWork: (work, milliseconds) => getAppMetrics().mapIndexWork.observe({ work }, milliseconds / 1000),
});

function placeAt(row: MapPointRow, precision: LocationPrecision): { place: string | null; country: string | null } {
  const country = row.place_country_code === null ? null : countryNameOf(row.place_country_code);
  const parts = precision === "region" ? [row.place_region, country] : [row.place_city, row.place_region, country];
  const words = [...new Set(parts.filter((part): part is string => part !== null))];
  return { place: words.length > 0 ? words.join(", ") : null, country };
}

/** The smallest box holding the points; a set across the date line gets the wide box, which still holds them all. */
function boundsOf(points: Iterable<MapPoint>): MapBounds | null {
  let bounds: MapBounds | null = null;
  for (const { properties } of points) {
    bounds ??= { west: 180, south: 90, east: -180, north: -90 };
    bounds.west = Math.min(bounds.west, properties.longitude);
    bounds.east = Math.max(bounds.east, properties.longitude);
    bounds.south = Math.min(bounds.south, properties.latitude);
    bounds.north = Math.max(bounds.north, properties.latitude);
  }
  return bounds;
}

/** The photo's point as this viewer has it (at their precision), or null when it is no point for them (country precision). */
function pointOf(row: MapPointRow, precision: LocationPrecision): MapPoint | null {
  const point = coordinatesAtPrecision(row.gps_latitude as number, row.gps_longitude as number, precision);
  if (point === null) return null;
  return {
    type: "Feature",
    geometry: { type: "Point", coordinates: [point.longitude, point.latitude] },
    properties: { photoId: row.id, latitude: point.latitude, longitude: point.longitude, ...placeAt(row, precision) },
  };
}

/** The same point, named the same: then the clusters it is in need not change. */
function samePoint(left: MapPoint, right: MapPoint): boolean {
  const [a, b] = [left.properties, right.properties];
  return a.latitude === b.latitude && a.longitude === b.longitude && a.place === b.place && a.country === b.country;
}

/** Rows turned into points per slice before the event loop runs again: about 5 ms of work. */
const POINTS_PER_SLICE = 5_000;

/** Clustered without holding the event loop: one zoom level at a time (cluster-in-slices.ts). */
async function clusterPoints(points: Map<string, MapPoint>): Promise<MapIndex> {
  const index = new Supercluster<PointProperties, ClusterProperties>({
    radius: CLUSTER_RADIUS_PX,
    extent: 512,
    maxZoom: MAX_MAP_ZOOM - 1,
    // A group is named by the place its photos share: the town if one, else the country if one.
    map: (properties) => ({ place: properties.place, country: properties.country }),
    reduce: (accumulated, properties) => {
      if (accumulated.place !== properties.place) accumulated.place = accumulated.country === properties.country ? accumulated.country : null;
      if (accumulated.country !== properties.country) accumulated.country = null;
    },
  });
  await loadInSlices(index, [...points.values()]);
  return { index, points, total: points.size, bounds: boundsOf(points.values()) };
}

/** Every point of the viewer, read page by page in id order with the event loop running between pages, each row kept if the viewer has it on the map. */
async function readAllPoints(db: DatabaseHandle, access: PhotoListAccess, shownOnly: boolean, precisionOf: (row: MapPointRow) => LocationPrecision): Promise<Map<string, MapPoint>> {
  const points = new Map<string, MapPoint>();
  for (let afterId: string | null = null; ; ) {
    const rows = await listGeotaggedPage(db, afterId, READ_PAGE_ROWS);
    for (const row of rows) {
      if (!isOnTheMap(row, access, shownOnly)) continue;
      const point = pointOf(row, precisionOf(row));
      if (point !== null) points.set(row.id, point);
    }
    if (rows.length < READ_PAGE_ROWS) return points;
    afterId = rows[rows.length - 1].id;
    await yieldToEventLoop();
  }
}

async function pointsOf(rows: MapPointRow[], precisionOf: (row: MapPointRow) => LocationPrecision): Promise<Map<string, MapPoint>> {
  const points = new Map<string, MapPoint>();
  for (let start = 0; start < rows.length; start += POINTS_PER_SLICE) {
    if (start > 0) await yieldToEventLoop();
    for (const row of rows.slice(start, start + POINTS_PER_SLICE)) {
      const point = pointOf(row, precisionOf(row));
      if (point !== null) points.set(row.id, point);
    }
  }
  return points;
}

/**
 * The index once `photoIds` changed: those photos read again under the viewer's rules. A photo
 * hidden, deleted or moved leaves or moves at once (the photos re-clustered from memory, no full
 * read); a change the viewer cannot see on the map (a title, a rating, someone else's private
 * photo) keeps the index as it is.
 */
async function patchIndex(current: MapIndex, rows: MapPointRow[], photoIds: ReadonlySet<string>, precisionOf: (row: MapPointRow) => LocationPrecision): Promise<MapIndex> {
  const fresh = await pointsOf(rows, precisionOf);
  const changed = [...photoIds].filter((id) => {
    const before = current.points.get(id);
    const after = fresh.get(id);
    return before === undefined || after === undefined ? before !== after : !samePoint(before, after);
  });
  if (changed.length === 0) return current;
  // A new map of points: the index being answered keeps its own until this one replaces it.
  const points = new Map(current.points);
  for (const id of changed) {
    const point = fresh.get(id);
    if (point === undefined) points.delete(id);
    else points.set(id, point);
  }
  return clusterPoints(points);
}

function scopeOf(viewer: Viewer) {
  return { access: photoListAccessOf(viewer, { ownPhotos: "finished" }), shownOnly: listedPlacesOf(viewer) !== "all" };
}

async function indexFor(db: DatabaseHandle, viewer: Viewer) {
  const { access, shownOnly } = scopeOf(viewer);
  const siteDefault = await siteLocationPrecision(db);
  // Visitors share one index; a signed-in user's own photos are exact for them, so theirs is their own.
  // The role too: an admin's index holds every located photo, and a role can change while signed in.
  const user = signedInUser(viewer);
  const key = `map:${user ? `${user.id}:${user.role}` : "anonymous"}:${siteDefault}`;
  const precisionOf = (row: MapPointRow) => listedPrecisionOf(viewer, row, { locationPrecision: siteDefault });
  return indexes.get(db, key, {
    build: async () => clusterPoints(await readAllPoints(db, access, shownOnly, precisionOf)),
    update: async (current, photoIds) => patchIndex(current, await listMapPoints(db, access, shownOnly, [...photoIds]), photoIds, precisionOf),
  });
}

/**
 * Where the map opens for this viewer: the box around the photos they have on it (the same points
 * as the markers, so never more precise), or null when they have none and the map shows the world.
 */
export async function getMapBounds(db: DatabaseHandle, viewer: Viewer): Promise<MapBounds | null> {
  return (await indexFor(db, viewer)).bounds;
}

/** The markers in a viewport: groups with their count and the zoom that opens them, and single photos with a thumbnail. */
export async function getMapClusters(db: DatabaseHandle, viewer: Viewer, viewport: MapViewport): Promise<MapClusters> {
  const { index, total } = await indexFor(db, viewer);
  const features = index.getClusters([viewport.west, viewport.south, viewport.east, viewport.north], viewport.zoom).slice(0, MAX_MARKERS);
  const photoIds = features.flatMap((feature) => ("cluster" in feature.properties ? [] : [feature.properties.photoId]));
  // Asked again under the same rules: the index may be a few seconds older than a change on another instance.
  const { access, shownOnly } = scopeOf(viewer);
  const [photos, variants] = await Promise.all([findMapPhotos(db, access, shownOnly, photoIds), listVariants(db, photoIds)]);
  const photosById = new Map(photos.map((photo) => [photo.id, photo]));
  const markers = features.flatMap((feature): MapMarker[] => {
    const [longitude, latitude] = feature.geometry.coordinates;
    const properties = feature.properties;
    if ("cluster" in properties && properties.cluster) {
      const clusterId = properties.cluster_id;
      return [
        {
          kind: "cluster",
          id: clusterId,
          latitude,
          longitude,
          count: properties.point_count,
          expansionZoom: Math.min(index.getClusterExpansionZoom(clusterId), MAX_MAP_ZOOM),
          placeName: properties.place,
        },
      ];
    }
    const point = properties as PointProperties;
    const photo = photosById.get(point.photoId);
    // Gone since the index was built (deleted, or no longer listable: the index is a few seconds old).
    if (!photo) return [];
    const thumbnail = variants
      .filter((variant) => variant.photo_id === photo.id && variant.format !== "avif")
      .sort((left, right) => left.width - right.width)[0];
    return [
      {
        kind: "photo",
        id: photo.id,
        latitude: point.latitude,
        longitude: point.longitude,
        name: photoAccessibleName({ altText: photo.alt_text, title: photo.title, takenAt: photo.taken_at, placeName: point.place }),
        placeName: point.place,
        thumbnailUrl: thumbnail ? toMediaUrl(photo.publication_key, thumbnail.storage_key) : null,
        pageUrl: `/p/${photo.id}`,
      },
    ];
  });
  return { markers, total };
}
