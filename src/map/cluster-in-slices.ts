import type Supercluster from "supercluster";

// supercluster's `load` clusters every zoom level in one synchronous run: about 0.8 s for 100,000
// photos on the CI machine (20 levels), during which the server answers nothing, and the map's
// index is built again every 10 s behind the readers (issue 31). `loadInSlices` does the same
// work, level by level, letting the event loop run between levels, so no single run is longer
// than one level's clustering (a few tens of milliseconds at 100,000 photos).
//
// It drives supercluster's own steps (`_createTree`, `_cluster`), as `load` does in 9.x, rather
// than copying the clustering: cluster-in-slices.test.ts fails if the result ever differs from
// `load`'s, and a supercluster without those steps is loaded the plain way (correct, but blocking).

/** Lets whatever waits (other requests, timers) run before the next slice of work. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

interface KdTree {
  data: Int32Array;
  numItems: number;
}

/** The parts of a supercluster 9.x index `load` uses, which its types do not name. */
interface SuperclusterSteps {
  options: { minZoom: number; maxZoom: number };
  stride: number;
  trees: KdTree[];
  _createTree(data: Int32Array, numItems: number): KdTree;
  _cluster(data: Int32Array, numItems: number, zoom: number, out: Int32Array): number;
}

function stepsOf(index: Supercluster<GeoJSON.GeoJsonProperties, GeoJSON.GeoJsonProperties>): SuperclusterSteps | null {
  const steps = index as unknown as Partial<SuperclusterSteps>;
  const usable =
    typeof steps._createTree === "function" &&
    typeof steps._cluster === "function" &&
    typeof steps.stride === "number" &&
    Array.isArray(steps.trees) &&
    typeof steps.options?.minZoom === "number" &&
    typeof steps.options.maxZoom === "number";
  return usable ? (steps as SuperclusterSteps) : null;
}

/**
 * Loads `points` into `index` as `index.load(points)` would, yielding to the event loop after the
 * points are indexed and after each zoom level is clustered. The index must not be read before
 * the promise resolves (half its levels are missing until then).
 */
export async function loadInSlices<P extends GeoJSON.GeoJsonProperties, C extends GeoJSON.GeoJsonProperties>(
  index: Supercluster<P, C>,
  points: Array<GeoJSON.Feature<GeoJSON.Point, P>>,
): Promise<Supercluster<P, C>> {
  const steps = stepsOf(index as unknown as Supercluster<GeoJSON.GeoJsonProperties, GeoJSON.GeoJsonProperties>);
  if (steps === null) return index.load(points);
  const { minZoom, maxZoom } = steps.options;
  // The points alone, indexed at maxZoom + 1: `load` with no level to cluster does exactly that.
  steps.options.minZoom = maxZoom + 1;
  try {
    index.load(points);
  } finally {
    steps.options.minZoom = minZoom;
  }
  await yieldToEventLoop();

  // Then each level from the one above it, as `load` does (and, like it, a level where nothing
  // grouped shares the tree above and hands its buffer on to the next).
  let previous = steps.trees[maxZoom + 1];
  let recycled: Int32Array | null = null;
  for (let zoom = maxZoom; zoom >= minZoom; zoom -= 1) {
    const out: Int32Array = recycled ?? new Int32Array(previous.numItems * steps.stride);
    recycled = null;
    const written = steps._cluster(previous.data, previous.numItems, zoom, out);
    if (written === previous.numItems) {
      steps.trees[zoom] = steps.trees[zoom + 1];
      recycled = out;
    } else {
      steps.trees[zoom] = steps._createTree(out, written);
      previous = steps.trees[zoom];
    }
    await yieldToEventLoop();
  }
  return index;
}
