import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { getLogger } from "@/src/log/logger";

/** A face as the detector found it: a box in the pixels it was given, and its 128-d descriptor. */
export interface DetectedFace {
  box: { left: number; top: number; width: number; height: number };
  score: number;
  descriptor: Float32Array;
}

export interface DetectorAnswer {
  faces: DetectedFace[];
  /** The detector process's resident memory after this photo, in bytes. */
  detectorRss: number;
}

/**
 * The detector process is ended after this long without a photo: its models hold about 330 MB,
 * which a site that is not importing has no use for; loading them again takes about 0.3 s.
 */
const IDLE_MS = 120_000;

interface DetectorLauncher {
  startFaceDetectorProcess(): ChildProcess;
}

/**
 * The launcher is plain JavaScript next to this module's source, found from the app's folder (the
 * server and the worker always run there: Next.js bundles this module, so its own path says
 * nothing) and imported at run time, never bundled (face-detector-launcher.mjs says why).
 */
async function loadLauncher(): Promise<DetectorLauncher> {
  const launcher = pathToFileURL(path.join(process.cwd(), "src", "faces", "face-detector-launcher.mjs")).href;
  return (await import(/* webpackIgnore: true */ /* turbopackIgnore: true */ launcher)) as DetectorLauncher;
}

interface Pending {
  resolve(answer: DetectorAnswer): void;
  reject(error: Error): void;
}

interface DetectorState {
  child: Promise<ChildProcess> | null;
  pending: Map<number, Pending>;
  pid: number | null;
  nextId: number;
  idleTimer: NodeJS.Timeout | null;
}

const state: DetectorState = { child: null, pid: null, pending: new Map(), nextId: 1, idleTimer: null };

function failPending(error: Error): void {
  for (const pending of state.pending.values()) pending.reject(error);
  state.pending.clear();
}

async function startChild(): Promise<ChildProcess> {
  const child = (await loadLauncher()).startFaceDetectorProcess();
  child.on("message", (message: { id: number; faces?: DetectedFace[]; rss?: number; error?: string }) => {
    const pending = state.pending.get(message.id);
    if (!pending) return;
    state.pending.delete(message.id);
    if (message.error !== undefined) pending.reject(new Error(`Face detection failed: ${message.error}`));
    else pending.resolve({ faces: message.faces ?? [], detectorRss: message.rss ?? 0 });
  });
  child.on("exit", (code, signal) => {
    if (state.pid === child.pid) {
      state.child = null;
      state.pid = null;
    }
    if (state.pending.size > 0) {
      getLogger().warn({ code, signal }, "the face detector process ended with photos in hand");
      failPending(new Error(`The face detector process ended (${signal ?? `code ${code}`}).`));
    }
  });
  state.pid = child.pid ?? null;
  getLogger().info({ pid: child.pid }, "face detector process started");
  return child;
}

function armIdleTimer(): void {
  if (state.idleTimer) clearTimeout(state.idleTimer);
  state.idleTimer = setTimeout(() => {
    if (state.pending.size === 0) stopFaceDetector();
  }, IDLE_MS);
  state.idleTimer.unref();
}

async function ask(message: Record<string, unknown>, transfer?: Uint8Array): Promise<DetectorAnswer> {
  const starting = (state.child ??= startChild());
  starting.catch(() => {
    if (state.child === starting) state.child = null;
  });
  const child = await starting;
  const id = state.nextId++;
  const answer = new Promise<DetectorAnswer>((resolve, reject) => state.pending.set(id, { resolve, reject }));
  child.send({ ...message, id, ...(transfer ? { pixels: transfer } : {}) });
  return answer.finally(armIdleTimer);
}

/**
 * Finds faces in `pixels` (raw RGB, `width` × `height`), at most `maxFaces` (the strongest),
 * in the detector's own process, started on first use.
 */
export function detectFaces(pixels: Uint8Array, width: number, height: number, maxFaces: number): Promise<DetectorAnswer> {
  return ask({ kind: "detect", width, height, maxFaces }, pixels);
}

/** Loads the models without a photo (the bench measures the loaded process's memory). */
export function warmFaceDetector(): Promise<DetectorAnswer> {
  return ask({ kind: "load" });
}

/** The detector's process id while it runs (tests check the models live there, not here). */
export function faceDetectorPid(): number | null {
  return state.pid;
}

export function stopFaceDetector(): void {
  if (state.idleTimer) clearTimeout(state.idleTimer);
  state.idleTimer = null;
  const child = state.child;
  state.child = null;
  state.pid = null;
  void child?.then((running) => running.connected && running.disconnect()).catch(() => undefined);
}
