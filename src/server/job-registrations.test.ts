import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { processSlot } from "@/src/config/process-singleton";
import * as faceJobKinds from "@/src/faces/face-job-kinds";
import * as photoJobKinds from "@/src/photos/photo-job-kinds";
import { JOB_REGISTRATIONS, registerJobsAndListeners } from "./job-registrations";
import { RECURRING_JOBS } from "./recurring-work";

const ROOT = path.resolve(import.meta.dirname, "../..");
/** The two kinds of process that run jobs: the server (also when RUN_WORKER=false: it registers the listeners) and `npm run worker`. */
const ENTRY_POINTS = ["src/server/boot.ts", "scripts/worker.ts"];

/** Every job kind the code names (the modules that name kinds export them as `…_JOB`). */
function namedJobKinds(): string[] {
  return [...Object.entries(photoJobKinds), ...Object.entries(faceJobKinds)].filter(([name, value]) => name.endsWith("_JOB") && typeof value === "string").map(([, value]) => value as string);
}

// What registering left in the process-wide slots the worker and the announcers read (src/jobs/worker.ts,
// src/photos/photo-finished.ts, src/photos/file-keywords.ts): read here rather than exported for a test.
const registeredKinds = () => [...(processSlot<{ handlers: Map<string, unknown> }>("worker").get()?.handlers.keys() ?? [])];
const listenerCount = (name: string) => processSlot<Set<unknown>>(name).get()?.size ?? 0;

describe("one list of job registrations", () => {
  it("is what both the server and `npm run worker` register, and neither registers a job or listener of its own", () => {
    for (const entry of ENTRY_POINTS) {
      const source = fs.readFileSync(path.join(ROOT, entry), "utf8");
      expect(source, entry).toMatch(/\bregisterJobsAndListeners\(\);/);
      // Any other register…() call there is a kind or listener the other process would miss.
      const ownRegistrations = [...source.matchAll(/\b(register\w*|on[A-Z]\w*)\(/g)].map((match) => match[1]).filter((name) => name !== "registerJobsAndListeners");
      expect(ownRegistrations, entry).toEqual([]);
    }
  });

  it("registers a handler for every job kind the code names (recurring ones through RECURRING_JOBS) and the change listeners", () => {
    registerJobsAndListeners();
    const recurringKinds = RECURRING_JOBS.map((job) => job.kind);
    const kinds = registeredKinds();
    const missing = namedJobKinds().filter((kind) => !kinds.includes(kind) && !recurringKinds.includes(kind));
    expect(missing).toEqual([]);
    expect(kinds).toEqual(expect.arrayContaining(["photo.process", "photo.finish", "video.process", "photo.faces"]));
    // Face detection queues itself when a photo is finished; file keywords become tags.
    expect(listenerCount("photo-finished-listeners")).toBe(1);
    expect(listenerCount("file-keywords-listeners")).toBe(1);
    expect(JOB_REGISTRATIONS.map((registration) => registration.name)).toEqual(["photos", "videos", "faces", "file keywords"]);
  });

  it("registers once per process, so no listener runs twice", () => {
    registerJobsAndListeners();
    registerJobsAndListeners();
    expect(listenerCount("file-keywords-listeners")).toBe(1);
  });
});
