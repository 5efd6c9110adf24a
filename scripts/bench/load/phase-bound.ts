/**
 * Every phase of bench:load runs within a bound: a phase that has not ended by then is reported as
 * stuck, with what it was waiting on, and the bench ends (cleaning up) instead of hanging silently
 * (one run hung after the S3 fault row and nothing said where). Each phase also says how long it
 * took, which shows where a run's time goes.
 */
export class StuckPhaseError extends Error {
  constructor(
    readonly phase: string,
    seconds: number,
    waitingOn: string,
  ) {
    super(`STUCK: "${phase}" did not end within ${seconds} s. Waiting on: ${waitingOn || "nothing the bench can name"}`);
    this.name = "StuckPhaseError";
  }
}

/** How long each phase took, in the order they ran, for the summary at the end. */
export const phaseSeconds: Array<{ phase: string; seconds: number }> = [];

/**
 * Runs `work`; answers its result, or throws StuckPhaseError once `boundSeconds` have passed
 * (`describeWaiting` names what was still pending then). The work itself is not cancelled: the
 * bench's clean-up stops the processes it waits on.
 */
export async function withinBound<T>(phase: string, boundSeconds: number, work: () => Promise<T>, describeWaiting: () => string = () => ""): Promise<T> {
  const startedAt = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StuckPhaseError(phase, boundSeconds, describeWaiting())), boundSeconds * 1000);
  });
  try {
    return await Promise.race([work(), stuck]);
  } finally {
    clearTimeout(timer);
    const seconds = (Date.now() - startedAt) / 1000;
    phaseSeconds.push({ phase, seconds });
    console.log(`  [${phase}: ${seconds.toFixed(1)} s]`);
  }
}

/** The phases' times as one block: where the run's time went. */
export function describePhaseTimes(): string {
  const total = phaseSeconds.reduce((sum, { seconds }) => sum + seconds, 0);
  const lines = phaseSeconds.map(({ phase, seconds }) => `  ${phase.padEnd(48)} ${seconds.toFixed(1).padStart(7)} s`);
  return [...lines, `  ${"total of the phases".padEnd(48)} ${total.toFixed(1).padStart(7)} s`].join("\n");
}
