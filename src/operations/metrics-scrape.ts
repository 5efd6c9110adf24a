import { Gauge } from "prom-client";
import { processSingleton } from "@/src/config/process-singleton";
import { type DatabaseHandle, findPostgresPool } from "@/src/db/client";
import { getLogger } from "@/src/log/logger";
import { type AppMetrics, getAppMetrics } from "@/src/metrics/metrics-registry";
import { countPhotosByKindAndStatus, countRows, countSharesByState, summariseJobs, sumStoredBytes } from "./library-figures.repository";

/**
 * The figures /metrics reads from the database when it is scraped: the job queue, the library and
 * the bytes stored. Read at most once per CACHE_MS whoever scrapes (several Prometheus servers, a
 * storm of scrapes: one set of queries, shared), and never at all between scrapes.
 */
const CACHE_MS = 5000;

interface DatabaseFigures {
  photos: Array<{ media_kind: string; status: string; count: string | number }>;
  albums: number;
  people: number;
  unfinishedUploads: number;
  shares: Array<{ state: string; count: string | number }>;
  storedBytes: { originals: number; variants: number };
  jobs: Array<{ kind: string; status: string; count: string | number; oldest_created_at: string | null }>;
}

async function readDatabaseFigures(db: DatabaseHandle, now: Date): Promise<DatabaseFigures> {
  const [photos, albums, people, unfinishedUploads, shares, storedBytes, jobs] = await Promise.all([
    countPhotosByKindAndStatus(db),
    countRows(db, "albums"),
    countRows(db, "people"),
    countRows(db, "pending_uploads"),
    countSharesByState(db, now.toISOString()),
    sumStoredBytes(db),
    summariseJobs(db),
  ]);
  return { photos, albums, people, unfinishedUploads, shares, storedBytes, jobs };
}

interface ScrapeGauges {
  databaseUp: Gauge;
  photos: Gauge<"media_kind" | "status">;
  albums: Gauge;
  shares: Gauge<"state">;
  people: Gauge;
  unfinishedUploads: Gauge;
  storedBytes: Gauge<"kind">;
  jobs: Gauge<"kind" | "status">;
  oldestJobAge: Gauge<"kind" | "status">;
  databasePool: Gauge<"state">;
}

interface ScrapeState {
  gauges: ScrapeGauges;
  cached: { at: number; figures: Promise<DatabaseFigures> } | null;
  /** The scrape being rendered: renders run one after another, so one cannot reset gauges another is reading. */
  rendering: Promise<unknown>;
}

function getScrapeState(): ScrapeState {
  return processSingleton<ScrapeState>("metrics-scrape", () => ({ gauges: makeGauges(getAppMetrics()), cached: null, rendering: Promise.resolve() }));
}

function makeGauges({ registry }: AppMetrics): ScrapeGauges {
  const registers = [registry];
  return {
    databaseUp: new Gauge({ name: "contact_sheet_database_figures_up", help: "1 when this scrape read the library, queue and storage figures from the database; 0 when it could not (they keep their last values).", registers }),
    photos: new Gauge({ name: "contact_sheet_photos", help: "Photos and videos in the library (the trash included), by media kind and processing status.", labelNames: ["media_kind", "status"], registers }),
    albums: new Gauge({ name: "contact_sheet_albums", help: "Albums, of every owner and visibility.", registers }),
    shares: new Gauge({ name: "contact_sheet_shares", help: "Share links by state (active, expired by date, revoked).", labelNames: ["state"], registers }),
    people: new Gauge({ name: "contact_sheet_people", help: "People (face clusters) of every owner, hidden ones included.", registers }),
    unfinishedUploads: new Gauge({ name: "contact_sheet_unfinished_uploads", help: "Resumable (tus) uploads started and not finished or expired yet.", registers }),
    storedBytes: new Gauge({ name: "contact_sheet_storage_bytes", help: "Bytes stored for photos, originals and variants (the trash included), from the recorded sizes.", labelNames: ["kind"], registers }),
    jobs: new Gauge({ name: "contact_sheet_jobs", help: "Jobs in the queue (queued, running) and failed for good, by kind and status.", labelNames: ["kind", "status"], registers }),
    oldestJobAge: new Gauge({ name: "contact_sheet_job_oldest_age_seconds", help: "Age of the oldest queued or running job, by kind and status, in seconds since it was queued.", labelNames: ["kind", "status"], registers }),
    databasePool: new Gauge({ name: "contact_sheet_database_pool_connections", help: "PostgreSQL pool connections of this process by state (total, idle, waiting for one); absent on SQLite.", labelNames: ["state"], registers }),
  };
}

function readFiguresShared(state: ScrapeState, db: DatabaseHandle, now: Date): Promise<DatabaseFigures> {
  if (state.cached && now.getTime() - state.cached.at < CACHE_MS) return state.cached.figures;
  const figures = readDatabaseFigures(db, now);
  state.cached = { at: now.getTime(), figures };
  // A failed read is not kept: the next scrape tries again.
  figures.catch(() => {
    if (state.cached?.figures === figures) state.cached = null;
  });
  return figures;
}

function setFigures(gauges: ScrapeGauges, figures: DatabaseFigures, now: Date): void {
  for (const row of figures.photos) gauges.photos.set({ media_kind: row.media_kind, status: row.status }, Number(row.count));
  gauges.albums.set(figures.albums);
  gauges.people.set(figures.people);
  gauges.unfinishedUploads.set(figures.unfinishedUploads);
  for (const row of figures.shares) gauges.shares.set({ state: row.state }, Number(row.count));
  gauges.storedBytes.set({ kind: "originals" }, figures.storedBytes.originals);
  gauges.storedBytes.set({ kind: "variants" }, figures.storedBytes.variants);
  for (const row of figures.jobs) {
    const labels = { kind: row.kind, status: row.status };
    gauges.jobs.set(labels, Number(row.count));
    if (row.status !== "failed" && row.oldest_created_at) {
      gauges.oldestJobAge.set(labels, Math.max(0, (now.getTime() - Date.parse(row.oldest_created_at)) / 1000));
    }
  }
}

/**
 * The Prometheus text of this process: what it recorded as it worked (requests, jobs, the hot
 * cache, uploads, Node.js itself) and the database's figures as of the last few seconds. When the
 * database does not answer, the figures keep their last values and contact_sheet_database_figures_up
 * says 0; the scrape itself still succeeds.
 */
export function renderMetrics(db: DatabaseHandle, now = new Date()): Promise<{ contentType: string; body: string }> {
  const state = getScrapeState();
  const rendered = state.rendering.then(() => render(state, db, now));
  state.rendering = rendered.catch(() => undefined);
  return rendered;
}

async function render(state: ScrapeState, db: DatabaseHandle, now: Date): Promise<{ contentType: string; body: string }> {
  const { gauges } = state;
  try {
    const figures = await readFiguresShared(state, db, now);
    // Labels that are gone (a job kind drained, a status emptied) must not linger with an old value.
    for (const gauge of [gauges.photos, gauges.shares, gauges.storedBytes, gauges.jobs, gauges.oldestJobAge]) gauge.reset();
    setFigures(gauges, figures, now);
    gauges.databaseUp.set(1);
  } catch (error) {
    // The figures keep their last read values, marked stale by contact_sheet_database_figures_up 0.
    getLogger().warn({ err: error }, "metrics: could not read the database's figures");
    gauges.databaseUp.set(0);
  }
  const pool = findPostgresPool();
  gauges.databasePool.reset();
  if (pool) {
    gauges.databasePool.set({ state: "total" }, pool.totalCount);
    gauges.databasePool.set({ state: "idle" }, pool.idleCount);
    gauges.databasePool.set({ state: "waiting" }, pool.waitingCount);
  }
  const { registry } = getAppMetrics();
  return { contentType: registry.contentType, body: await registry.metrics() };
}
