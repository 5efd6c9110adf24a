// bench:scale – preloaded into the app's server with NODE_OPTIONS=--require <this file>: measures how
// long the event loop was blocked, and the longest garbage-collection pause, which is one cause of a
// block that no request's code can remove. On SIGUSR2 it writes both, since the previous signal (in
// milliseconds), to the file named by SCALE_LOOP_MONITOR_FILE, then starts counting afresh.
//
// Only the process it is first loaded into measures: it takes its two variables out of the
// environment at once, so processes the server starts (Next.js's, the image decoder's) neither
// load it nor react to the signal.
"use strict";
/* eslint-disable @typescript-eslint/no-require-imports -- loaded by --require, before any ES module: CommonJS on purpose */
const fs = require("node:fs");
const { monitorEventLoopDelay, PerformanceObserver } = require("node:perf_hooks");

const file = process.env.SCALE_LOOP_MONITOR_FILE;
delete process.env.SCALE_LOOP_MONITOR_FILE;
if (process.env.NODE_OPTIONS) {
  process.env.NODE_OPTIONS = process.env.NODE_OPTIONS.split(/\s+/)
    .filter((option, index, options) => !option.endsWith("scale-loop-monitor.cjs") && !(option === "--require" && options[index + 1]?.endsWith("scale-loop-monitor.cjs")))
    .join(" ");
  if (process.env.NODE_OPTIONS.trim() === "") delete process.env.NODE_OPTIONS;
}

if (file) {
  // The histogram records the time between two ticks of a RESOLUTION_MS timer, so an idle loop
  // records RESOLUTION_MS: what exceeds it is the time the loop was blocked.
  const RESOLUTION_MS = 5;
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  let gcMaxMs = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMaxMs = Math.max(gcMaxMs, entry.duration);
  }).observe({ entryTypes: ["gc"] });
  let sequence = 0;
  process.on("SIGUSR2", () => {
    sequence += 1;
    const maxMs = Math.max(0, histogram.max / 1e6 - RESOLUTION_MS);
    histogram.reset();
    fs.writeFileSync(file, JSON.stringify({ sequence, maxMs, gcMaxMs }));
    gcMaxMs = 0;
  });
}
