import type { Deployment } from "./deployment";
import type { Observation, Recorder } from "./recorder";
import type { UploadOutcome } from "./traffic";

/** One fault: what starts it and what ends it (the bench's own doing: the app is never told). */
export interface FaultRow {
  name: string;
  begin(): Promise<unknown> | unknown;
  end(): Promise<unknown> | unknown;
}

export interface FaultResult {
  /** What the clients saw while the fault lasted. */
  during: Observation[];
  /** Seconds from the fault's end until the site answered its readiness and a page again; null: never within the run. */
  recoveredSeconds: number | null;
  /** What the clients saw once it had recovered. */
  after: Observation[];
  /** Processes of the deployment that exited meanwhile (a crash: nothing here stops them). */
  crashed: string[];
  phase: { recorder: Recorder; outcomes: UploadOutcome[] };
}

/** Load before the fault, so it meets requests in flight; and after it, to see the site whole again. */
const WARM_UP_SECONDS = 3;
const AFTER_SECONDS = 25;

async function isWhole(siteUrl: string): Promise<boolean> {
  try {
    const [ready, page] = await Promise.all([fetch(`${siteUrl}/api/health/ready`, { signal: AbortSignal.timeout(3000) }), fetch(siteUrl, { signal: AbortSignal.timeout(3000) })]);
    await Promise.all([ready.arrayBuffer(), page.arrayBuffer()]);
    return ready.status === 200 && page.status === 200;
  } catch {
    return false;
  }
}

/**
 * Runs light traffic, starts the fault after a warm-up, ends it `faultSeconds` later, then polls
 * until the site is whole again by itself (nothing is restarted) and keeps the traffic going a while.
 */
export async function runFaultRow(
  row: FaultRow,
  faultSeconds: number,
  siteUrl: string,
  deployment: Deployment,
  runTraffic: (seconds: number, during: () => Promise<void>) => Promise<FaultResult["phase"]>,
): Promise<FaultResult> {
  let beganAt = 0;
  let endedAt = 0;
  let recoveredAt: number | null = null;
  const phase = await runTraffic(WARM_UP_SECONDS + faultSeconds + AFTER_SECONDS, async () => {
    await new Promise((resolve) => setTimeout(resolve, WARM_UP_SECONDS * 1000));
    beganAt = Date.now();
    await row.begin();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, beganAt + faultSeconds * 1000 - Date.now())));
    await row.end();
    endedAt = Date.now();
    const deadline = endedAt + (AFTER_SECONDS - 5) * 1000;
    while (Date.now() < deadline) {
      if (await isWhole(siteUrl)) {
        recoveredAt = Date.now();
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  });
  const processes = [
    ...deployment.apps.map((app, index) => ({ name: index === 0 ? "app A" : "app B", exited: app.process.exitCode !== null || app.process.signalCode !== null })),
    { name: "worker", exited: deployment.worker.process.exitCode !== null || deployment.worker.process.signalCode !== null },
  ];
  const recovered: number | null = recoveredAt;
  return {
    during: phase.recorder.between(beganAt, endedAt),
    recoveredSeconds: recovered === null ? null : (recovered - endedAt) / 1000,
    // From a second after recovery: requests already in flight when it came back may still carry the fault.
    after: recovered === null ? [] : phase.recorder.between(recovered + 1000, Date.now()),
    crashed: processes.filter((process) => process.exited).map((process) => process.name),
    phase,
  };
}
