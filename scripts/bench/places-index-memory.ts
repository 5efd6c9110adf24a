// bench:places, the map indexes' memory (issue 31): one cluster index is kept per signed-in viewer
// (their own photos are exact for them), so memory grows with the viewers who open the map. In this
// process, on the large seeded database, the map service itself is asked for the world by 1, 10,
// 50 and 200 distinct signed-in viewers (role viewer: each sees the public photos, none of their
// own), and the resident set size is read after a full collection each time. The service keeps at
// most MAP_INDEXES_MAX_BYTES of indexes (src/map/map-clusters.service.ts), so past a few viewers the
// figure must stop growing.
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import { Pool } from "pg";
import type { Viewer } from "@/src/access/viewer";
import type { Database } from "@/src/db/database";
import { getMapClusters } from "@/src/map/map-clusters.service";
import type { SeededDatabase } from "./scale-seed";

const VIEWER_COUNTS = (process.env.BENCH_PLACES_VIEWERS ?? "1,10,50,200").split(",").map(Number);
const WORLD = { west: -180, south: -85, east: 180, north: 85, zoom: 1 };

/** The seeded database opened in this process (SQLite read-only), for asking the map service directly. */
export function openSeeded(seeded: SeededDatabase): Kysely<Database> {
  if (seeded.databaseUrl) return new Kysely<Database>({ dialect: new PostgresDialect({ pool: new Pool({ connectionString: seeded.databaseUrl, max: 2 }) }) });
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(path.join(seeded.dataDirectory, "contact-sheet.sqlite"), { readonly: true }) }) });
}

const viewerNumber = (index: number): Viewer => ({
  kind: "user",
  user: { id: `bench-map-viewer-${index}`, email: `viewer-${index}@bench.invalid`, name: `Viewer ${index}`, role: "viewer" },
});

/** After a full collection: the process's resident set, and what JavaScript holds (heap and array buffers, where supercluster keeps its trees). */
function memoryMb(): { rss: number; held: number } {
  global.gc?.();
  const usage = process.memoryUsage();
  return { rss: usage.rss / 1_048_576, held: (usage.heapUsed + usage.arrayBuffers) / 1_048_576 };
}

/**
 * The bench row: for each number of distinct viewers, what JavaScript holds above the baseline
 * (the indexes; the RSS alone also moves as the seed's memory is given back) and the RSS, and
 * the time the last viewer's first map took.
 */
export async function benchMapIndexMemory(seeded: SeededDatabase, label: string): Promise<string> {
  const db = openSeeded(seeded);
  try {
    const baseline = memoryMb();
    const cells: string[] = [];
    let asked = 0;
    for (const count of VIEWER_COUNTS) {
      let lastMs = 0;
      for (; asked < count; asked += 1) {
        const started = performance.now();
        await getMapClusters(db, viewerNumber(asked), WORLD);
        lastMs = performance.now() - started;
      }
      const now = memoryMb();
      cells.push(`${count} viewers: +${Math.round(now.held - baseline.held)} MB held, RSS ${Math.round(now.rss)} MB (a new viewer's first map ${Math.round(lastMs)} ms)`);
      console.log(`  map indexes, ${label}: ${cells.at(-1)}`);
    }
    return `map indexes' memory at ${label} (after gc${global.gc ? "" : ", NOT run with --expose-gc: rough"}; RSS at the start ${Math.round(baseline.rss)} MB): ${cells.join("; ")}`;
  } finally {
    await db.destroy();
  }
}
