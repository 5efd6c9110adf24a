// bench:scale – load (autocannon, library API), the server's event-loop blocking as the preloaded
// scale-loop-monitor.cjs reports it, and the plain node:http baseline.
import fs from "node:fs";
import { Worker } from "node:worker_threads";
import autocannon from "autocannon";

export interface LoadRequest {
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface LoadFigures {
  requestsPerSecond: number;
  p99Ms: number;
  /** Answers outside 2xx, connection errors and time-outs: each one is reported. */
  failures: string[];
}

export const CONNECTIONS = 10;

/** `connections` keep-alive connections for `seconds`; only 2xx answers count as served. */
export async function runLoad(baseUrl: string, request: LoadRequest, seconds: number, connections = CONNECTIONS): Promise<LoadFigures> {
  const result = await autocannon({
    url: new URL(request.path, baseUrl).toString(),
    method: request.method,
    headers: request.headers,
    body: request.body,
    connections,
    duration: seconds,
    timeout: 20,
  });
  const failures: string[] = [];
  if (result.non2xx > 0) {
    const codes = Object.entries(result.statusCodeStats ?? {})
      .filter(([code]) => !code.startsWith("2"))
      .map(([code, stats]) => `${stats.count ?? 0}× ${code}`);
    failures.push(`${result.non2xx} answers outside 2xx (${codes.join(", ")})`);
  }
  if (result.errors > 0) failures.push(`${result.errors} connection errors (${result.timeouts} time-outs)`);
  return { requestsPerSecond: result["2xx"] / result.duration, p99Ms: result.latency.p99, failures };
}

export interface LoopFigures {
  /** The longest event-loop block, in ms. */
  maxMs: number;
  /** The longest garbage-collection pause, in ms: a block at least this long came from the collector. */
  gcMaxMs: number;
}

/** The server's longest event-loop block and collector pause since the previous call (see scale-loop-monitor.cjs). */
export async function readLoop(pid: number, file: string): Promise<LoopFigures> {
  fs.rmSync(file, { force: true });
  process.kill(pid, "SIGUSR2");
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    try {
      const { maxMs, gcMaxMs } = JSON.parse(fs.readFileSync(file, "utf8")) as LoopFigures;
      return { maxMs, gcMaxMs };
    } catch {
      // Not written yet (or half written): the server answers the signal when its loop is free.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  throw new Error(`The server (pid ${pid}) did not report its event-loop delay`);
}

// Its own thread, so that it does not share an event loop with autocannon in this process.
const PLAIN_SERVER_SOURCE = `
const http = require("node:http");
const { parentPort, workerData } = require("node:worker_threads");
const body = Buffer.from(workerData.body);
const server = http.createServer((request, response) => {
  response.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": body.length });
  response.end(body);
});
server.listen(0, "127.0.0.1", () => parentPort.postMessage(server.address().port));
parentPort.on("message", () => server.close(() => process.exit(0)));
`;

/** A plain node:http server answering `body` from memory on 127.0.0.1; answers its URL. */
export async function startPlainServer(body: Buffer): Promise<{ url: string; stop: () => Promise<void> }> {
  const worker = new Worker(PLAIN_SERVER_SOURCE, { eval: true, workerData: { body } });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      worker.postMessage("stop");
      await worker.terminate();
    },
  };
}
