/**
 * Where the map page finds what maplibre-gl loads besides its own bundle, all from our origin. The
 * worker (maplibre draws in a Web Worker, which bundlers cannot place for it) is served from the
 * installed package at a URL naming its version, so it is cached for good and a new release gets a
 * new URL; map-assets.test.ts fails when the installed maplibre-gl differs from MAPLIBRE_VERSION.
 * Client-safe: the page's component reads these.
 */
export const MAPLIBRE_VERSION = "6.17.0";
export const MAPLIBRE_WORKER_URL = `/api/map/worker/${MAPLIBRE_VERSION}`;
