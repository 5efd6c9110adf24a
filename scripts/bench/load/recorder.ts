import { percentile } from "../bench-app";
import { countServerErrors } from "./answer-kinds";

/** One answer (or a network failure, status 0) as a client saw it. */
export interface Observation {
  route: string;
  status: number;
  /** Whether it carried Retry-After: a 503 with it is the designed answer (answer-kinds.ts). */
  hasRetryAfter: boolean;
  milliseconds: number;
  at: number;
}

/**
 * Every answer the bench's clients saw, by route name (never by raw URL), so a phase's table and a
 * fault's window can both be cut from it afterwards.
 */
export class Recorder {
  readonly observations: Observation[] = [];
  /** Requests sent and not yet answered in full: their route and when they left, to name what a stuck phase waits on. */
  private readonly inFlight = new Map<number, { route: string; startedAt: number }>();
  private nextRequest = 0;

  record(route: string, status: number, milliseconds: number, hasRetryAfter = false): void {
    this.observations.push({ route, status, hasRetryAfter, milliseconds, at: Date.now() });
  }

  /** Times one request; a thrown network error is recorded as status 0 and thrown again. */
  async time(route: string, send: () => Promise<Response>): Promise<Response> {
    const startedAt = performance.now();
    const request = (this.nextRequest += 1);
    this.inFlight.set(request, { route, startedAt: Date.now() });
    try {
      const response = await send();
      // The body is part of the answer's time (media especially).
      const body = await response.arrayBuffer();
      this.record(route, response.status, performance.now() - startedAt, response.headers.has("retry-after"));
      return new Response(response.status === 204 || response.status === 304 ? null : body, { status: response.status, headers: response.headers });
    } catch (error) {
      this.record(route, 0, performance.now() - startedAt);
      throw error;
    } finally {
      this.inFlight.delete(request);
    }
  }

  /** The requests still waiting for their answer, by route with the oldest's age: "tus patch x3 (oldest 118 s)". */
  describeInFlight(): string {
    const byRoute = new Map<string, { count: number; oldest: number }>();
    for (const { route, startedAt } of this.inFlight.values()) {
      const seen = byRoute.get(route) ?? { count: 0, oldest: startedAt };
      byRoute.set(route, { count: seen.count + 1, oldest: Math.min(seen.oldest, startedAt) });
    }
    const now = Date.now();
    return [...byRoute].map(([route, { count, oldest }]) => `${route} x${count} (oldest ${((now - oldest) / 1000).toFixed(0)} s)`).join(", ") || "no request in flight";
  }

  between(from: number, to: number): Observation[] {
    return this.observations.filter((observation) => observation.at >= from && observation.at < to);
  }
}

/** What clients saw in a window, by status: "200 x812, 503 x12, 503 without Retry-After x1, network x3". */
export function describeStatuses(observations: Observation[]): string {
  const counts = new Map<string, number>();
  for (const { status, hasRetryAfter } of observations) {
    const key = status === 0 ? "network" : status === 503 && !hasRetryAfter ? "503 without Retry-After" : String(status);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].sort(([left], [right]) => left.localeCompare(right)).map(([status, count]) => `${status} x${count}`).join(", ") || "nothing";
}

/**
 * One line per route and a total: requests, p50 and p99 in ms, then the 5xx by kind (500, 503 shed
 * = with Retry-After, 507, other 5xx; answer-kinds.ts says which are failures) and network failures.
 */
export function routeTable(observations: Observation[]): string {
  const byRoute = new Map<string, Observation[]>();
  for (const observation of observations) byRoute.set(observation.route, [...(byRoute.get(observation.route) ?? []), observation]);
  const columns = ["500", "503 shed", "507", "other 5xx", "net"];
  const lines = [`  ${"route".padEnd(22)} ${"requests".padStart(8)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)} ${columns.map((column) => column.padStart(9)).join(" ")}  statuses`];
  const line = (route: string, seen: Observation[]) => {
    const answered = seen.filter((observation) => observation.status !== 0).map((observation) => observation.milliseconds);
    const p50 = answered.length > 0 ? percentile(answered, 50).toFixed(0) : "-";
    const p99 = answered.length > 0 ? percentile(answered, 99).toFixed(0) : "-";
    const errors = countServerErrors(seen);
    const network = seen.filter((observation) => observation.status === 0).length;
    const counts = [errors["500"], errors["503 shed"], errors["507"], errors["other 5xx"], network];
    return `  ${route.padEnd(22)} ${String(seen.length).padStart(8)} ${p50.padStart(8)} ${p99.padStart(8)} ${counts.map((count) => String(count).padStart(9)).join(" ")}  ${describeStatuses(seen)}`;
  };
  for (const [route, seen] of [...byRoute].sort(([left], [right]) => left.localeCompare(right))) lines.push(line(route, seen));
  if (byRoute.size > 1) lines.push(line("all routes", observations));
  return lines.join("\n");
}
