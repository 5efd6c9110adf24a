import Supercluster from "supercluster";
import { describe, expect, it } from "vitest";
import { loadInSlices } from "./cluster-in-slices";

type Properties = { photoId: string; place: string };

/** Points in a few towns and scattered across the world, the same every run. */
function somePoints(count: number): Array<GeoJSON.Feature<GeoJSON.Point, Properties>> {
  let state = 31;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  const towns = [
    [12.49, 41.89],
    [2.35, 48.85],
    [-73.98, 40.75],
    [179.9, -16.5],
  ];
  return Array.from({ length: count }, (_, index) => {
    const town = towns[index % 5];
    const coordinates = town ? [town[0] + (random() - 0.5) * 0.2, town[1] + (random() - 0.5) * 0.2] : [random() * 360 - 180, random() * 160 - 80];
    return { type: "Feature", geometry: { type: "Point", coordinates }, properties: { photoId: `p${index}`, place: `town ${index % 5}` } };
  });
}

function newIndex() {
  return new Supercluster<Properties, { place: string | null }>({
    radius: 60,
    extent: 512,
    maxZoom: 19,
    map: (properties) => ({ place: properties.place }),
    reduce: (accumulated, properties) => {
      if (accumulated.place !== properties.place) accumulated.place = null;
    },
  });
}

describe("loadInSlices", () => {
  it("builds the same index as supercluster's load, at every zoom and after the date line", async () => {
    const points = somePoints(3_000);
    const whole = newIndex().load(points);
    const sliced = await loadInSlices(newIndex(), points);
    for (let zoom = 0; zoom <= 20; zoom += 1) {
      for (const box of [
        [-180, -85, 180, 85],
        [12, 41.5, 13, 42.3],
        [170, -20, -170, -10],
      ]) {
        const clusters = sliced.getClusters(box as [number, number, number, number], zoom);
        expect(clusters).toEqual(whole.getClusters(box as [number, number, number, number], zoom));
        for (const cluster of clusters) {
          if (!("cluster_id" in cluster.properties)) continue;
          expect(sliced.getClusterExpansionZoom(cluster.properties.cluster_id)).toBe(whole.getClusterExpansionZoom(cluster.properties.cluster_id));
        }
      }
    }
  });

  it("lets other work run between zoom levels instead of holding the event loop for the whole load", async () => {
    const order: string[] = [];
    const loading = loadInSlices(newIndex(), somePoints(3_000)).then(() => order.push("loaded"));
    // Queued after the load began: a load in one run would be settled before this ever ran.
    setImmediate(() => order.push("other work"));
    await loading;
    expect(order).toEqual(["other work", "loaded"]);
  });

  it("answers an empty index like load does", async () => {
    const sliced = await loadInSlices(newIndex(), []);
    expect(sliced.getClusters([-180, -85, 180, 85], 3)).toEqual([]);
  });
});
