import { z } from "zod";
import { getDb } from "@/src/db/client";
import { routeMethods, withPublic } from "@/src/http/api-handler";
import { checkReadiness } from "@/src/operations/readiness";
import { getStorage } from "@/src/storage/app-storage";

const checkState = <const States extends [string, ...string[]]>(states: States) => z.enum(states);
const checksSchema = z.object({
  database: checkState(["ok", "unavailable"]),
  storage: checkState(["ok", "unavailable"]),
  migrations: checkState(["ok", "pending", "unknown"]),
  worker: checkState(["ok", "stale", "unknown"]),
});

const NO_STORE = { "Cache-Control": "no-store" };

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // GET /api/health/ready – whether this instance should be sent traffic (a load balancer's probe)
  GET: withPublic(async () => {
    const readiness = await checkReadiness({ db: getDb(), storage: getStorage() });
    if (readiness.status === "ready") return Response.json(readiness, { headers: NO_STORE });
    const message = readiness.status === "shutting down" ? "Shutting down." : `Not ready: ${readiness.failed.join(", ")}.`;
    // The API's error shape, with each part's state beside it when the checks ran.
    return Response.json({ ...readiness, error: { code: "SERVICE_UNAVAILABLE", message } }, { status: 503, headers: { ...NO_STORE, "Retry-After": "5" } });
  }, {
    summary: "Whether this instance is ready for traffic: database, storage, migrations and a live worker",
    description:
      "`/api/health` says only that the process answers (liveness). This readiness answer also writes, reads and deletes a small object in the " +
      "media storage, checks that no database migration is pending and that some worker (in a web server or `npm run worker`) beat its " +
      "heartbeat in the last 30 seconds. 503 names the parts that failed (`worker stale`, `storage unavailable`…) and, once the process " +
      "has begun to stop (SIGTERM), says `Shutting down.` Never a setting, path, host or driver message: those are in the server's log.",
    response: { status: 200, description: "Every part is ok.", schema: z.object({ status: z.literal("ready"), checks: checksSchema }) },
    errors: ["SERVICE_UNAVAILABLE"],
  }),
});
