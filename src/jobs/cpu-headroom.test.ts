import { describe, expect, it } from "vitest";
import { createSpareCoreMeter, type CpuTimes } from "./cpu-headroom";

/** A machine of 2 cores whose idle and total CPU milliseconds the test moves by hand. */
function fakeMachine() {
  const times: CpuTimes = { idle: 0, total: 0 };
  return {
    readTimes: () => ({ ...times }),
    /** `ms` of wall time pass, during which `idleCores` of the 2 cores stood idle. */
    pass(ms: number, idleCores: number) {
      times.total += ms * 2;
      times.idle += ms * idleCores;
    },
  };
}

describe("spare cores", () => {
  it("answers 0 until a window has passed, then the idle cores of the last whole window", () => {
    const machine = fakeMachine();
    const spareCores = createSpareCoreMeter({ windowMs: 500, readTimes: machine.readTimes, cores: 2 });
    expect(spareCores(0)).toBe(0);
    machine.pass(300, 2);
    expect(spareCores(300)).toBe(0); // Not a whole window yet.
    machine.pass(300, 2);
    expect(spareCores(600)).toBeCloseTo(2);
    machine.pass(200, 0);
    expect(spareCores(800)).toBeCloseTo(2); // The last whole window's figure still.
    machine.pass(400, 0.5);
    expect(spareCores(1200)).toBeCloseTo((200 * 0 + 400 * 0.5) / 600);
  });

  it("does not trust a window that spans a long silence: it starts again from unknown", () => {
    const machine = fakeMachine();
    const spareCores = createSpareCoreMeter({ windowMs: 500, readTimes: machine.readTimes, cores: 2 });
    spareCores(0);
    machine.pass(60_000, 2); // A quiet minute nobody asked about…
    expect(spareCores(60_000)).toBe(0); // …says nothing about the busy second that follows.
    machine.pass(500, 0);
    expect(spareCores(60_500)).toBeCloseTo(0);
    machine.pass(500, 1);
    expect(spareCores(61_000)).toBeCloseTo(1);
  });
});
