import { runTool, ToolMissingError } from "./tool-runner";
import type { VideoType } from "./video-type-detector";

/** Where ffmpeg and ffprobe are and how long one run may take; the caller reads them from the environment. */
export interface VideoTools {
  ffmpegPath: string;
  ffprobePath: string;
  timeoutSeconds: number;
}

// The one demuxer each accepted container is read with. Forcing it means a file cannot talk ffmpeg
// into a demuxer that opens other files or URLs (hls, concat, ffconcat, image2 patterns).
const DEMUXERS: Record<VideoType, string> = {
  mp4: "mov",
  m4v: "mov",
  mov: "mov",
  "3gp": "mov",
  webm: "matroska",
  mkv: "matroska",
  avi: "avi",
  mts: "mpegts",
};

/** A single allocation larger than this is refused by ffmpeg: a decompression bomb fails instead of eating the memory. */
const MAX_ALLOCATION_BYTES = 1024 * 1024 * 1024;

/**
 * The arguments that open an input safely, for ffmpeg and ffprobe alike: only the `file` protocol
 * (no URL, and `file:` before the absolute path, so a name that looks like a URL or an option is
 * still a file), the demuxer forced by the type we detected, QuickTime's external references off,
 * and stdin never read.
 */
export function safeInputArguments(filePath: string, type: VideoType): string[] {
  const args = ["-protocol_whitelist", "file", "-f", DEMUXERS[type]];
  // mov's "dref" atoms may name other files; ffmpeg ignores them unless told, and we say so anyway.
  if (DEMUXERS[type] === "mov") args.push("-enable_drefs", "0");
  return [...args, "-i", `file:${filePath}`];
}

/** The global arguments of every ffmpeg run: quiet, no stdin, bounded memory and threads. */
export function ffmpegGlobalArguments(): string[] {
  return ["-hide_banner", "-nostdin", "-loglevel", "error", "-max_alloc", String(MAX_ALLOCATION_BYTES), "-threads", "2", "-filter_threads", "1"];
}

export function toolTimeoutMs(tools: VideoTools): number {
  return tools.timeoutSeconds * 1000;
}

/** Whether ffmpeg and ffprobe answer here; the message says what to install or set when they do not. */
export interface VideoToolsStatus {
  available: boolean;
  message: string;
  /**
   * Whether the answer holds until a restart: found, or not there at all. A run that was only slow
   * or failed (a loaded machine at start-up) is worth asking again.
   */
  isSettled: boolean;
}

/** How long `-version` may take: on a busy two-core machine starting up, ffmpeg's libraries took over 5 s to load. */
const VERSION_TIMEOUT_MS = 30_000;

/** Runs `-version` of both. */
export async function checkVideoTools(tools: Pick<VideoTools, "ffmpegPath" | "ffprobePath">): Promise<VideoToolsStatus> {
  const versions: string[] = [];
  for (const [name, command, setting] of [
    ["ffmpeg", tools.ffmpegPath, "FFMPEG_PATH"],
    ["ffprobe", tools.ffprobePath, "FFPROBE_PATH"],
  ] as const) {
    try {
      const { stdout } = await runTool(command, ["-hide_banner", "-version"], { timeoutMs: VERSION_TIMEOUT_MS, maxStdoutBytes: 64 * 1024 });
      versions.push(stdout.toString("utf8").split("\n")[0].trim());
    } catch (error) {
      const isMissing = error instanceof ToolMissingError;
      const why = isMissing ? "was not found" : `did not run (${error instanceof Error ? error.message : String(error)})`;
      return {
        available: false,
        message: `${name} ${why} at "${command}": videos are refused until it is installed (Debian: apt-get install ffmpeg) or ${setting} names it.`,
        isSettled: isMissing,
      };
    }
  }
  return { available: true, message: versions.join("; "), isSettled: true };
}
