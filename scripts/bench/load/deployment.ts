import fs from "node:fs";
import { readProcessMemory } from "../bench-app";
import { type RunningScript, startNpmScript } from "../../../tests/helpers/script-process";
import { type RunningServer, spawnServer, waitUntilHealthy } from "../../../tests/helpers/server-process";

/**
 * The deployment the README describes: two app processes (RUN_WORKER=false) on fixed ports behind
 * nginx, and one `npm run worker`, all on one database and one store. Each process can be SIGKILLed
 * and started again on its port; the peak memory of every process that ever ran is kept.
 */
export interface Deployment {
  apps: RunningServer[];
  worker: RunningScript;
  killApp(index: number): Promise<void>;
  startApp(index: number): Promise<void>;
  killWorker(): Promise<void>;
  startWorker(): void;
  /** Samples every live process's VmHWM into the peaks (call it before a kill and at the end). */
  samplePeaks(): void;
  /** Peak resident memory per process name ("app A", "app B", "worker"), the largest of its lives. */
  peaks: Map<string, number>;
  stop(): Promise<void>;
}

/** Every process below `pid` (npm → sh → tsx → node), from /proc. */
function descendantsOf(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const parent = Number(fs.readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1].split(" ")[1]);
      parents.set(parent, [...(parents.get(parent) ?? []), Number(entry)]);
    } catch {
      // Gone meanwhile.
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const next = queue.shift() as number;
    for (const child of parents.get(next) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

export function startDeployment(ports: [number, number], env: Record<string, string>): Deployment {
  const names = ["app A", "app B"];
  const peaks = new Map<string, number>();
  const apps: RunningServer[] = ports.map((port) => spawnServer(port, env));
  let worker = startNpmScript("worker", [], { ...env, RUN_WORKER: "true" });
  const samplePeaks = () => {
    const sample = (name: string, pids: number[]) => {
      for (const pid of pids) {
        const memory = readProcessMemory(pid);
        if (memory) peaks.set(name, Math.max(peaks.get(name) ?? 0, memory.peak));
      }
    };
    apps.forEach((app, index) => app.process.pid && sample(names[index], [app.process.pid, ...descendantsOf(app.process.pid)]));
    // The worker's own node process is below npm and tsx; the largest of the tree is it.
    if (worker.process.pid) sample("worker", descendantsOf(worker.process.pid));
  };
  const killApp = async (index: number) => {
    samplePeaks();
    const app = apps[index];
    const exited = new Promise<void>((resolve) => app.process.once("exit", () => resolve()));
    app.process.kill("SIGKILL");
    await exited;
  };
  const startApp = async (index: number) => {
    apps[index] = spawnServer(ports[index], env);
    await waitUntilHealthy(apps[index]);
  };
  const killWorker = async () => {
    samplePeaks();
    const { pid } = worker.process;
    if (!pid || worker.process.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => worker.process.once("exit", () => resolve()));
    process.kill(-pid, "SIGKILL");
    await exited;
  };
  const startWorker = () => {
    worker = startNpmScript("worker", [], { ...env, RUN_WORKER: "true" });
  };
  const stop = async () => {
    await Promise.all([...apps.map((app) => app.stop()), worker.stop()]);
  };
  return {
    apps,
    get worker() {
      return worker;
    },
    killApp,
    startApp,
    killWorker,
    startWorker,
    samplePeaks,
    peaks,
    stop,
  };
}
