import { getAppMetrics } from "./metrics-registry";
import { routePattern } from "./route-pattern";

export interface AnsweredRequest {
  method: string;
  pathname: string;
  /** Undefined for a route without dynamic segments. */
  params: Record<string, string | string[] | undefined> | undefined;
  status: number;
  seconds: number;
}

/** Methods a route answers; anything else is counted under one label so a client cannot invent labels. */
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** Counts one answered request and its latency under its route's pattern. */
export function recordRequest({ method, pathname, params, status, seconds }: AnsweredRequest): void {
  const { httpRequests, httpRequestDuration } = getAppMetrics();
  const labels = { method: KNOWN_METHODS.has(method) ? method : "OTHER", route: routePattern(pathname, params) };
  httpRequests.inc({ ...labels, status: String(status) });
  httpRequestDuration.observe(labels, seconds);
}
