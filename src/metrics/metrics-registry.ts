import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { processSingleton } from "@/src/config/process-singleton";

/**
 * The process's Prometheus registry and the instruments the app records into as it works. One per
 * process (Next.js may bundle this module once per route, and every copy must count into the same
 * numbers), made on first use. Figures read from the database at scrape time (the queue, the
 * library, storage bytes) are not here: src/operations fills those in when /metrics is asked.
 *
 * Every label is bounded: routes by their pattern, jobs by their kind, never an id or a raw URL.
 */
export interface AppMetrics {
  registry: Registry;
  httpRequests: Counter<"method" | "route" | "status">;
  httpRequestDuration: Histogram<"method" | "route">;
  jobDuration: Histogram<"kind" | "outcome">;
  jobFailures: Counter<"kind" | "final">;
  hotMediaCache: Counter<"result">;
  uploadsInProgress: Gauge;
  mapIndexWork: Histogram<"work">;
}

/** Seconds; from a cached variant (a few ms) to a large download's first byte or a slow upload chunk. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Seconds; a thumbnail phase takes well under a second, a video's playable copy minutes. */
const JOB_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900];
/** Seconds; a patch for a few photos takes milliseconds, a build at 100,000 photos a few seconds. */
const MAP_INDEX_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export function getAppMetrics(): AppMetrics {
  return processSingleton<AppMetrics>("metrics", () => {
    const registry = new Registry();
    // Event loop lag, GC, heap and RSS, CPU, handles: prom-client's standard set, under its standard names.
    collectDefaultMetrics({ register: registry });
    return {
      registry,
      httpRequests: new Counter({
        name: "contact_sheet_http_requests_total",
        help: "HTTP requests answered by the API and media routes, by route pattern and status.",
        labelNames: ["method", "route", "status"],
        registers: [registry],
      }),
      httpRequestDuration: new Histogram({
        name: "contact_sheet_http_request_duration_seconds",
        help: "Time until a route's answer is ready (its headers; a streamed body may take longer), by route pattern.",
        labelNames: ["method", "route"],
        buckets: REQUEST_BUCKETS,
        registers: [registry],
      }),
      jobDuration: new Histogram({
        name: "contact_sheet_job_duration_seconds",
        help: "Time a job ran in this process's worker, by kind and outcome (done, retry, failed).",
        labelNames: ["kind", "outcome"],
        buckets: JOB_BUCKETS,
        registers: [registry],
      }),
      jobFailures: new Counter({
        name: "contact_sheet_job_failures_total",
        help: "Jobs that failed in this process's worker, by kind; final=true when no try is left.",
        labelNames: ["kind", "final"],
        registers: [registry],
      }),
      hotMediaCache: new Counter({
        name: "contact_sheet_hot_media_cache_requests_total",
        help: "GET and HEAD /media requests the hot cache of small public variants answered (hit) or passed to the route (miss).",
        labelNames: ["result"],
        registers: [registry],
      }),
      uploadsInProgress: new Gauge({
        name: "contact_sheet_uploads_in_progress",
        help: "Upload requests (multipart or a tus chunk) this process is receiving right now.",
        registers: [registry],
      }),
      mapIndexWork: new Histogram({
        name: "contact_sheet_map_index_seconds",
        help: "Time the map's cluster indexes took to build or patch, by why: first, changes (a change naming no photos), refresh (the change log too far behind to follow), patch (this process's changes), follow (other instances' changes, from the change log).",
        labelNames: ["work"],
        buckets: MAP_INDEX_BUCKETS,
        registers: [registry],
      }),
    };
  });
}
