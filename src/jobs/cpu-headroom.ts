import os from "node:os";

/** The machine's CPU time so far, summed over its cores, in milliseconds. */
export interface CpuTimes {
  idle: number;
  total: number;
}

function readMachineCpuTimes(): CpuTimes {
  let idle = 0;
  let total = 0;
  for (const { times } of os.cpus()) {
    idle += times.idle;
    total += times.user + times.nice + times.sys + times.idle + times.irq;
  }
  return { idle, total };
}

/**
 * How many cores the whole machine left idle lately (not only this process: an upload's client,
 * PostgreSQL or another app on the same host count too). Measured over windows of at least
 * `windowMs`; between them the last window's figure is answered, so asking often costs nothing.
 * Answers 0 until a window has passed since the first question, or since one that came after a
 * long silence (a figure averaged over minutes says nothing about now): unknown counts as busy.
 */
export function createSpareCoreMeter({ windowMs = 500, readTimes = readMachineCpuTimes, cores = os.availableParallelism() } = {}) {
  let windowStart: { at: number; times: CpuTimes } | null = null;
  let spareCores = 0;
  return function spareCoresLately(now = Date.now()): number {
    if (!windowStart || now - windowStart.at > windowMs * 4) {
      windowStart = { at: now, times: readTimes() };
      spareCores = 0;
    } else if (now - windowStart.at >= windowMs) {
      const times = readTimes();
      const elapsed = times.total - windowStart.times.total;
      if (elapsed > 0) spareCores = ((times.idle - windowStart.times.idle) / elapsed) * cores;
      windowStart = { at: now, times };
    }
    return spareCores;
  };
}
