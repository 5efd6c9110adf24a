// bench:places, the event loop while a map index is built (issue 31): every 10 s behind its
// readers, and for every viewer's first map, the server builds that viewer's cluster index from
// every photo they have on the map. At 100,000 photos that was one synchronous run of about a
// second (up to 14 s under load), during which the server answered nothing else. In this process,
// on the large seeded database, the map service is asked for the world by BLOCK_VIEWERS new
// signed-in viewers one after the other (each a full build), and the longest event-loop block
// during each is measured by a 1 ms timer: the longest gap between two of its ticks, less the
// period. (The loop-delay histogram bench:scale preloads misses a block that starts before its
// timer has fired once, as a build started at once by a request does.)
import type { Viewer } from "@/src/access/viewer";
import { getMapClusters } from "@/src/map/map-clusters.service";
import { median } from "./bench-app";
import { openSeeded } from "./places-index-memory";
import type { SeededDatabase } from "./scale-seed";

const BLOCK_VIEWERS = 3;
const WORLD = { west: -180, south: -85, east: 180, north: 85, zoom: 1 };
/** The ticker's period: an idle loop ticks this often, so what a gap exceeds it by was blocked. */
const TICK_MS = 1;

/** Runs `work` and answers the longest time the event loop was held meanwhile, in ms. */
export async function longestBlockDuring(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - TICK_MS);
    last = now;
  }, TICK_MS);
  try {
    // The ticker running first, so a block at the very start is seen too.
    await new Promise((resolve) => setTimeout(resolve, 20));
    longest = 0;
    await work();
    // One more tick after the end, so a block at the very end is seen too.
    await new Promise((resolve) => setTimeout(resolve, 20));
    return longest;
  } finally {
    clearInterval(ticker);
  }
}

const viewerNumber = (index: number): Viewer => ({
  kind: "user",
  user: { id: `bench-map-block-${index}`, email: `block-${index}@bench.invalid`, name: `Block ${index}`, role: "viewer" },
});

/** The bench row: a full build's time and the longest event-loop block during it, medians and worst of BLOCK_VIEWERS builds. */
export async function benchMapIndexBlocking(seeded: SeededDatabase, label: string): Promise<string> {
  const db = openSeeded(seeded);
  try {
    const buildMs: number[] = [];
    const blockMs: number[] = [];
    for (let index = 0; index < BLOCK_VIEWERS; index += 1) {
      blockMs.push(
        await longestBlockDuring(async () => {
          const started = performance.now();
          await getMapClusters(db, viewerNumber(index), WORLD);
          buildMs.push(performance.now() - started);
        }),
      );
    }
    const row = `map index build at ${label}, ${BLOCK_VIEWERS} new viewers: build ${Math.round(median(buildMs))} ms (median), longest event-loop block ${Math.round(median(blockMs))} ms (median), ${Math.round(Math.max(...blockMs))} ms (worst)`;
    console.log(`  ${row}`);
    return row;
  } finally {
    await db.destroy();
  }
}
