import { describe, expect, it } from "vitest";
import type { VideoProbe } from "@/src/video/video-probe";
import { handOverVideoProbe, takeVideoProbe } from "./video-probe-handoff";

function probeOf(durationMs: number): VideoProbe {
  return { durationMs } as VideoProbe;
}

describe("handing a video's probe to its next job", () => {
  it("gives a probe once, to the video it was kept for", () => {
    const probe = probeOf(5000);
    handOverVideoProbe("video-a", probe);
    expect(takeVideoProbe("video-b")).toBeUndefined();
    expect(takeVideoProbe("video-a")).toBe(probe);
    // Taken: the next job (another process's, a retry) probes the original itself.
    expect(takeVideoProbe("video-a")).toBeUndefined();
  });

  it("keeps at most a thousand, the oldest going first, and none older than ten minutes", () => {
    const start = Date.now();
    for (let index = 0; index < 1001; index += 1) handOverVideoProbe(`many-${index}`, probeOf(index), start);
    expect(takeVideoProbe("many-0", start)).toBeUndefined();
    expect(takeVideoProbe("many-1", start)?.durationMs).toBe(1);
    expect(takeVideoProbe("many-1000", start)?.durationMs).toBe(1000);

    handOverVideoProbe("stale", probeOf(1), start);
    expect(takeVideoProbe("stale", start + 11 * 60 * 1000)).toBeUndefined();
    // Keeping another evicts what has expired.
    handOverVideoProbe("old", probeOf(1), start);
    handOverVideoProbe("new", probeOf(2), start + 11 * 60 * 1000);
    expect(takeVideoProbe("old", start)).toBeUndefined();
    expect(takeVideoProbe("new", start + 11 * 60 * 1000)).toBeDefined();
  });
});
