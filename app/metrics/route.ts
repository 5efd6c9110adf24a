import { getEnv } from "@/src/config/env";
import { getDb } from "@/src/db/client";
import { AppError } from "@/src/errors/app-error";
import { routeMethods, withPublic } from "@/src/http/api-handler";
import { decideMetricsAccess } from "@/src/operations/metrics-access";
import { renderMetrics } from "@/src/operations/metrics-scrape";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /metrics – this process's metrics for Prometheus, behind METRICS_TOKEN
  GET: withPublic(async ({ request }) => {
    const access = decideMetricsAccess(getEnv().METRICS_TOKEN, request.headers.get("authorization"));
    // Off unless the operator set a token: the page does not exist, as far as anyone can tell.
    if (access === "metrics off") throw new AppError("NOT_FOUND", "There is nothing here.");
    if (access === "refused") throw new AppError("UNAUTHENTICATED", "Send Authorization: Bearer <METRICS_TOKEN>.", { "WWW-Authenticate": 'Bearer realm="metrics"' });
    const { contentType, body } = await renderMetrics(getDb());
    return new Response(body, { headers: { "Content-Type": contentType, "Cache-Control": "no-store" } });
  }, {
    summary: "This process's metrics in the Prometheus text format",
    description:
      "Off (404) unless `METRICS_TOKEN` is set; then only `Authorization: Bearer <METRICS_TOKEN>` reads it (401 otherwise). Requests by " +
      "route pattern, job durations and failures, the hot media cache, uploads in progress and Node.js's own figures are this process's; " +
      "the queue, the library and the bytes stored are read from the database, at most once every 5 seconds. Scrape every instance.",
    response: { status: 200, description: "The metrics.", contentType: "text/plain; version=0.0.4" },
    errors: ["NOT_FOUND", "UNAUTHENTICATED"],
  }),
});
