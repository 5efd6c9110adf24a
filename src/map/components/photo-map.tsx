"use client";

import "maplibre-gl/dist/maplibre-gl.css";
import type { GeoJSONSource, Map as MapLibreMap, MapLibreEvent, Marker, StyleSpecification } from "maplibre-gl";
import { useEffect, useRef, useState } from "react";
import type { z } from "zod";
import { answerShape, callApi } from "@/src/ui/api-client";
import type { mapClustersResponseSchema } from "../map-api.schemas";
import { MAPLIBRE_WORKER_URL } from "../map-assets";

// The map is a public page: the answer's type is the contract's (erased at build) and only its
// outline is checked, so zod stays out of the bundle. maplibre-gl (about 250 KB compressed) is
// imported only once this component runs, so no other page, nor this page's first paint, pays for it.
type ClustersAnswer = z.output<typeof mapClustersResponseSchema>;
type MapMarker = ClustersAnswer["markers"][number];
const clustersAnswer = answerShape<ClustersAnswer>((answer) => Array.isArray(answer.markers) && typeof answer.total === "number");

const MAX_ZOOM = 20;
/** Fitted to a handful of photos in one town, the map opens at a town's width, not a street's. */
const FIT_MAX_ZOOM = 10;
/** Room around the fitted photos for a marker's width (up to 60 px) and the zoom buttons. */
const FIT_PADDING_PX = 64;
/**
 * From this zoom on (a country across a phone), the 1:110m coastlines are visibly coarse (whole
 * bays and islands missing): the 1:50m shapes replace them once the reader zooms in this far.
 */
const DETAILED_SHAPES_ZOOM = 4;

/** A camera move's event; `byReader` marks the moves this component makes for the reader (opening a group). */
type MoveEvent = MapLibreEvent & { originalEvent?: unknown; byReader?: boolean };

/** The box around the viewer's photos, from the server (src/map/map-clusters.service.ts getMapBounds). */
export interface InitialMapBounds {
  west: number;
  south: number;
  east: number;
  north: number;
}

/** The page's theme colours as the browser resolved them (light-dark() included), for the map's paint. */
function themeColours(probe: HTMLElement): { water: string; land: string; border: string } {
  const read = (variable: string) => {
    probe.style.color = `var(${variable})`;
    return getComputedStyle(probe).color;
  };
  return { water: read("--map-water"), land: read("--map-land"), border: read("--map-border") };
}

function mapStyle(countriesUrl: string, colours: ReturnType<typeof themeColours>): StyleSpecification {
  // Country shapes only, from our own origin: no tiles, fonts, glyphs or sprites from anywhere.
  return {
    version: 8,
    // Absolute: maplibre fetches GeoJSON in a worker started from a blob: URL, where a path resolves to nothing.
    sources: { countries: { type: "geojson", data: new URL(countriesUrl, window.location.href).href, attribution: "Country shapes: Natural Earth" } },
    layers: [
      { id: "water", type: "background", paint: { "background-color": colours.water } },
      { id: "land", type: "fill", source: "countries", paint: { "fill-color": colours.land } },
      { id: "borders", type: "line", source: "countries", paint: { "line-color": colours.border, "line-width": 0.75 } },
    ],
  };
}

/** A longitude folded into -180…180 (the map reports 190 for a view panned across the date line). */
function foldLongitude(longitude: number): number {
  if (longitude >= -180 && longitude <= 180) return longitude;
  return ((((longitude + 180) % 360) + 360) % 360) - 180;
}

/** The query for what the map shows now: west > east when the view crosses the date line. */
function viewportQuery(map: MapLibreMap): string {
  const bounds = map.getBounds();
  const wide = bounds.getEast() - bounds.getWest() >= 360;
  const west = wide ? -180 : foldLongitude(bounds.getWest());
  const east = wide ? 180 : foldLongitude(bounds.getEast());
  const clamp = (latitude: number) => Math.max(-90, Math.min(90, latitude));
  const round = (degrees: number) => Number(degrees.toFixed(5));
  const bbox = [west, clamp(bounds.getSouth()), east, clamp(bounds.getNorth())].map(round).join(",");
  const zoom = Math.max(0, Math.min(MAX_ZOOM, Math.floor(map.getZoom())));
  return `bbox=${encodeURIComponent(bbox)}&zoom=${zoom}`;
}

function clusterName(marker: Extract<MapMarker, { kind: "cluster" }>): string {
  return `${marker.count} photos${marker.placeName ? ` near ${marker.placeName}` : ""}. Zoom in`;
}

/** A marker's element: a button that zooms into a group, or a link to one photo with its thumbnail. */
function markerElement(marker: MapMarker, onCluster: (marker: Extract<MapMarker, { kind: "cluster" }>) => void): HTMLElement {
  if (marker.kind === "cluster") {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "map-marker map-cluster";
    // Bigger groups draw bigger, within a thumb's reach either way.
    button.dataset.size = marker.count >= 1000 ? "large" : marker.count >= 50 ? "medium" : "small";
    button.textContent = marker.count >= 10_000 ? `${Math.round(marker.count / 1000)}k` : String(marker.count);
    button.setAttribute("aria-label", clusterName(marker));
    button.addEventListener("click", (event) => {
      event.stopPropagation();
      onCluster(marker);
    });
    return button;
  }
  const link = document.createElement("a");
  link.className = "map-marker map-photo";
  link.href = marker.pageUrl;
  link.setAttribute("aria-label", marker.name);
  if (marker.thumbnailUrl) {
    const image = document.createElement("img");
    image.src = marker.thumbnailUrl;
    image.alt = "";
    image.loading = "lazy";
    image.decoding = "async";
    link.append(image);
  }
  return link;
}

/**
 * The map of the viewer's photos: country outlines drawn by maplibre-gl, and the server's groups
 * (GET /api/map/clusters) as HTML markers, asked again whenever the view settles. A group is a
 * button that zooms in until it splits; a single photo is a link to its page. Markers are in the
 * page's tab order; after a group opens, focus moves to the first new marker.
 */
export function PhotoMap({
  countriesUrl,
  detailedCountriesUrl,
  initialBounds,
}: {
  countriesUrl: string;
  /** The finer country shapes, fetched only after the reader zoomed in past DETAILED_SHAPES_ZOOM. */
  detailedCountriesUrl: string;
  initialBounds: InitialMapBounds | null;
}) {
  const container = useRef<HTMLDivElement>(null);
  const probe = useRef<HTMLSpanElement>(null);
  const [status, setStatus] = useState("Loading the map…");
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let map: MapLibreMap | undefined;
    let markers: Marker[] = [];
    let request: AbortController | undefined;
    let focusFirstMarker = false;
    let disposed = false;

    async function start() {
      const maplibre = await import("maplibre-gl");
      if (disposed || !container.current || !probe.current) return;
      // Bundled, maplibre cannot find its worker beside itself: it is served from our origin.
      maplibre.setWorkerUrl(new URL(MAPLIBRE_WORKER_URL, window.location.href).href);
      const colours = themeColours(probe.current);
      map = new maplibre.Map({
        container: container.current,
        style: mapStyle(countriesUrl, colours),
        // The map opens on the viewer's photos, so their groups are in view on a phone as on a desk
        // (a phone shows only a third of the world's width); with none, the whole world's width.
        ...(initialBounds
          ? {
              bounds: [initialBounds.west, initialBounds.south, initialBounds.east, initialBounds.north] as [number, number, number, number],
              fitBoundsOptions: { padding: FIT_PADDING_PX, maxZoom: FIT_MAX_ZOOM },
            }
          : { center: [0, 25] as [number, number], zoom: Math.log2(Math.max(container.current.clientWidth, 256) / 512) }),
        minZoom: -1,
        maxZoom: MAX_ZOOM,
        attributionControl: { compact: true },
        dragRotate: false,
        pitchWithRotate: false,
        touchPitch: false,
        renderWorldCopies: true,
      });
      map.touchZoomRotate.disableRotation();
      map.keyboard.disableRotation();
      map.addControl(new maplibre.NavigationControl({ showCompass: false }), "top-right");
      map.getCanvas().setAttribute("aria-label", "Map of where the photos were taken. Arrow keys move it, plus and minus zoom.");

      const openCluster = (marker: Extract<MapMarker, { kind: "cluster" }>) => {
        focusFirstMarker = true;
        map?.easeTo({ center: [marker.longitude, marker.latitude], zoom: Math.max(marker.expansionZoom, (map?.getZoom() ?? 0) + 1) }, { byReader: true });
      };

      // The finer coastlines come only after a move the reader made (a gesture, a key, a button, a
      // group opened), never with the page: a map that opens on one town's photos is as light to
      // load as before (the 1:50m shapes are 650 KB compressed), and the outlines sharpen in place.
      let detailed = false;
      const sharpenCoastlines = (event: MoveEvent) => {
        if (detailed || !map || map.getZoom() < DETAILED_SHAPES_ZOOM || (!event.originalEvent && !event.byReader)) return;
        detailed = true;
        // A failure is told by the map's error event (below); a later move tries again.
        map
          .getSource<GeoJSONSource>("countries")
          ?.setData(new URL(detailedCountriesUrl, window.location.href).href)
          .catch(() => (detailed = false));
      };

      const refresh = async () => {
        if (!map) return;
        request?.abort();
        const controller = (request = new AbortController());
        try {
          const answer = await callApi(`/api/map/clusters?${viewportQuery(map)}`, { method: "GET", signal: controller.signal }, clustersAnswer);
          if (controller.signal.aborted || !map) return;
          // Replacing the markers must not drop a keyboard user's focus to the page: it goes on to
          // the first new marker (also when a group's opening move ended another move's refresh,
          // which had taken the "focus after opening" turn with markers this one replaces).
          const hadFocus = markers.some((marker) => marker.getElement() === document.activeElement);
          for (const marker of markers) marker.remove();
          markers = answer.markers.map((marker) =>
            new maplibre.Marker({ element: markerElement(marker, openCluster) }).setLngLat([marker.longitude, marker.latitude]).addTo(map as MapLibreMap),
          );
          const inView = answer.markers.reduce((sum, marker) => sum + (marker.kind === "cluster" ? marker.count : 1), 0);
          setStatus(
            answer.total === 0
              ? "No photos with a location to show yet."
              : `${inView} of ${answer.total} ${answer.total === 1 ? "photo" : "photos"} in view`,
          );
          setFailed(false);
          if (focusFirstMarker || hadFocus) {
            focusFirstMarker = false;
            markers[0]?.getElement().focus();
          }
        } catch (error) {
          if (controller.signal.aborted) return;
          setFailed(true);
          setStatus(error instanceof Error ? `Could not load the photos: ${error.message}` : "Could not load the photos.");
        }
      };
      map.on("load", refresh);
      map.on("moveend", refresh);
      map.on("moveend", sharpenCoastlines);
      map.on("error", (event) => {
        // The outlines missing leaves the markers usable on a plain background: say so, keep going.
        setStatus(`The country outlines could not be drawn (${event.error?.message ?? "unknown error"}).`);
      });

      // The reader's theme may change while the map is open: repaint land and water to match.
      const repaint = () => {
        if (!map || !probe.current || !map.isStyleLoaded()) return;
        const next = themeColours(probe.current);
        map.setPaintProperty("water", "background-color", next.water);
        map.setPaintProperty("land", "fill-color", next.land);
        map.setPaintProperty("borders", "line-color", next.border);
      };
      const observer = new MutationObserver(repaint);
      observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
      const scheme = window.matchMedia("(prefers-color-scheme: dark)");
      scheme.addEventListener("change", repaint);
      map.once("remove", () => {
        observer.disconnect();
        scheme.removeEventListener("change", repaint);
      });
    }

    start().catch(() => {
      setFailed(true);
      setStatus("The map could not start in this browser (it needs WebGL).");
    });
    return () => {
      disposed = true;
      request?.abort();
      map?.remove();
    };
  }, [countriesUrl, detailedCountriesUrl, initialBounds]);

  return (
    <div className="photo-map">
      <p className={failed ? "notice error photo-map-status" : "muted photo-map-status"} role="status" data-testid="map-status">
        {status}
      </p>
      <div ref={container} className="photo-map-canvas" data-testid="photo-map" />
      <span ref={probe} className="photo-map-probe" aria-hidden="true" />
    </div>
  );
}
