import { getEnv } from "@/src/config/env";
import { processSingleton } from "@/src/config/process-singleton";
import { checkVideoTools, type VideoTools, type VideoToolsStatus } from "./video-tools";
import { DEFAULT_VIDEO_MAX_PIXELS, type VideoLimits } from "./video-probe";

/** ffmpeg and ffprobe as the environment names them (FFMPEG_PATH, FFPROBE_PATH, VIDEO_TIMEOUT_SECONDS). */
export function getVideoTools(): VideoTools {
  const env = getEnv();
  return { ffmpegPath: env.FFMPEG_PATH, ffprobePath: env.FFPROBE_PATH, timeoutSeconds: env.VIDEO_TIMEOUT_SECONDS };
}

export function getVideoLimits(): VideoLimits {
  return { maxDurationSeconds: getEnv().VIDEO_MAX_DURATION_SECONDS, maxPixels: DEFAULT_VIDEO_MAX_PIXELS };
}

/**
 * Whether this process can take videos, asked at start-up (which logs the answer) and remembered
 * once it is settled: found, or not installed (installing ffmpeg afterwards needs a restart, as any
 * system package does). A check that was only slow or failed is asked again at the next upload.
 */
export function getVideoToolsStatus(): Promise<VideoToolsStatus> {
  const remembered = processSingleton<{ status: Promise<VideoToolsStatus> | null }>("video-tools-status", () => ({ status: null }));
  if (remembered.status) return remembered.status;
  const status = checkVideoTools(getVideoTools());
  remembered.status = status;
  void status.then((answer) => {
    if (!answer.isSettled && remembered.status === status) remembered.status = null;
  });
  return status;
}
