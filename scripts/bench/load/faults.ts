import type { Deployment } from "./deployment";
import type { Observation, Recorder } from "./recorder";
import type { UploadOutcome } from "./traffic";

/** One fault: what starts it and what ends it (the bench's own doing: the app is never told). */
export interface FaultRow {
  name: string;
  begin(): Promise<unknown> | unknown;
  end(): Promise<unknown> | unknown;
  /** The upload disk filled up: 507 is a designed answer while it lasts (SECURITY.md 22). */
  isDiskFull?: boolean;
}

/** One round of the recovery probe: null when every answer was normal, else what was not ("readiness 503, media no answer"). */
export type RecoveryProbe = (timeoutMs: number) => Promise<string | null>;

export interface FaultResult {
  /** What the clients saw while the fault lasted. */
  during: Observation[];
  /**
   * Seconds from the fault's end to the first probe round that answered normally (its answers'
   * arrival, so the round's own time is included); null: none within RECOVERY_BOUND_SECONDS.
   */
  recoveredSeconds: number | null;
  /** How long that first normal round took, of recoveredSeconds (the site's latency under load, not the fault's). */
  normalRoundSeconds: number | null;
  /** The last round's problem when it never recovered. */
  lastProblem: string;
  /** Seconds from the fault's end to the last failed answer (5xx or no answer) a client saw; null: none after it ended. */
  lastClientFailureSeconds: number | null;
  /** What the clients saw from a second after recovery to the end. */
  after: Observation[];
  /** Processes of the deployment that exited meanwhile (a crash: nothing here stops them). */
  crashed: string[];
  phase: { recorder: Recorder; outcomes: UploadOutcome[] };
}

/** Load before the fault, so it meets requests in flight. */
const WARM_UP_SECONDS = 3;
/**
 * How long after the fault's end the site has to answer normally again by itself. Generous on
 * purpose: under full load on a shared 2-core machine a page alone takes 1-5 s (p50), so the
 * earlier fixed 3 s per probe called a site that had recovered "not recovered".
 */
export const RECOVERY_BOUND_SECONDS = 60;
/** A probe round starts this long after the previous one started (at once if that one took longer). */
const PROBE_INTERVAL_MS = 250;
/** Traffic goes on this long after recovery, to see the site whole under load again. */
const AFTER_SECONDS = 20;

/** The most a row's traffic can last: warm-up, the fault, the whole recovery bound and the time after. */
export function faultRowMaxSeconds(faultSeconds: number): number {
  return WARM_UP_SECONDS + faultSeconds + RECOVERY_BOUND_SECONDS + AFTER_SECONDS;
}

const isFailure = (observation: Observation) => observation.status === 0 || observation.status >= 500;

/**
 * Runs light traffic, starts the fault after a warm-up, ends it `faultSeconds` later, then probes
 * every 250 ms until one round answers normally (nothing is restarted), for at most
 * RECOVERY_BOUND_SECONDS; the traffic then goes on AFTER_SECONDS more and stops.
 */
export async function runFaultRow(
  row: FaultRow,
  faultSeconds: number,
  probe: RecoveryProbe,
  deployment: Deployment,
  runTraffic: (maxSeconds: number, during: (stopTrafficAt: (at: number) => void) => Promise<void>) => Promise<FaultResult["phase"]>,
): Promise<FaultResult> {
  let beganAt = 0;
  let endedAt = 0;
  let recoveredAt: number | null = null;
  let normalRoundMs: number | null = null;
  let lastProblem = "no probe round ran";
  const phase = await runTraffic(faultRowMaxSeconds(faultSeconds), async (stopTrafficAt) => {
    await new Promise((resolve) => setTimeout(resolve, WARM_UP_SECONDS * 1000));
    beganAt = Date.now();
    await row.begin();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, beganAt + faultSeconds * 1000 - Date.now())));
    await row.end();
    endedAt = Date.now();
    const deadline = endedAt + RECOVERY_BOUND_SECONDS * 1000;
    while (Date.now() < deadline) {
      const roundStartedAt = Date.now();
      // A round may take as long as the bound leaves: a slow normal answer is still normal.
      const problem = await probe(Math.max(1, deadline - roundStartedAt));
      if (problem === null) {
        recoveredAt = Date.now();
        normalRoundMs = recoveredAt - roundStartedAt;
        break;
      }
      lastProblem = problem;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, roundStartedAt + PROBE_INTERVAL_MS - Date.now())));
    }
    stopTrafficAt(recoveredAt === null ? Date.now() : recoveredAt + AFTER_SECONDS * 1000);
  });
  const processes = [
    ...deployment.apps.map((app, index) => ({ name: index === 0 ? "app A" : "app B", exited: app.process.exitCode !== null || app.process.signalCode !== null })),
    { name: "worker", exited: deployment.worker.process.exitCode !== null || deployment.worker.process.signalCode !== null },
  ];
  const recovered: number | null = recoveredAt;
  const lastFailure = phase.recorder.observations.filter((observation) => observation.at >= endedAt && isFailure(observation)).at(-1);
  return {
    during: phase.recorder.between(beganAt, endedAt),
    recoveredSeconds: recovered === null ? null : (recovered - endedAt) / 1000,
    normalRoundSeconds: normalRoundMs === null ? null : normalRoundMs / 1000,
    lastProblem,
    lastClientFailureSeconds: lastFailure ? (lastFailure.at - endedAt) / 1000 : null,
    // From a second after recovery: requests already in flight when it came back may still carry the fault.
    after: recovered === null ? [] : phase.recorder.between(recovered + 1000, Date.now()),
    crashed: processes.filter((process) => process.exited).map((process) => process.name),
    phase,
  };
}
