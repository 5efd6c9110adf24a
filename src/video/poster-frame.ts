import { runTool, ToolFailedError, ToolLimitError } from "./tool-runner";
import { HDR_TO_SDR_FILTER, fitWithinFilter } from "./video-filters";
import type { VideoProbe } from "./video-probe";
import { UnreadableVideoError } from "./video-probe";
import { ffmpegGlobalArguments, safeInputArguments, toolTimeoutMs, type VideoTools } from "./video-tools";
import type { VideoType } from "./video-type-detector";

/** The poster is made at most this large; the largest photo variant is smaller. */
const POSTER_MAX_SIDE = 3840;
/** Frames the thumbnail filter compares; the one nearest their average colour wins, so a black or blank frame (a fade, a lens cap) loses. */
const FRAMES_COMPARED = 40;

/**
 * Writes the video's poster frame as a PNG at `outputPath` (upright: ffmpeg applies the rotation;
 * HDR tone mapped). Taken a little way in (a tenth of the length, at most 3 s), where phones and
 * cameras have stopped fading in, as the most representative of the next frames.
 *
 * @throws UnreadableVideoError when no frame can be decoded.
 */
export async function extractPosterFrame(tools: VideoTools, inputPath: string, type: VideoType, probe: VideoProbe, outputPath: string): Promise<void> {
  const seekSeconds = Math.min(3, probe.durationMs / 10_000);
  const filters = [...(probe.isHdr ? [HDR_TO_SDR_FILTER] : []), `thumbnail=${FRAMES_COMPARED}`, fitWithinFilter(POSTER_MAX_SIDE)];
  const args = [
    ...ffmpegGlobalArguments(),
    "-ss", seekSeconds.toFixed(3),
    ...safeInputArguments(inputPath, type),
    "-map", "0:v:0", "-an", "-sn", "-dn",
    "-vf", filters.join(","),
    "-frames:v", "1", "-f", "image2", "-c:v", "png", "-y", `file:${outputPath}`,
  ];
  try {
    await runTool(tools.ffmpegPath, args, { timeoutMs: toolTimeoutMs(tools), maxStdoutBytes: 64 * 1024 });
  } catch (error) {
    if (error instanceof ToolFailedError) throw new UnreadableVideoError(`no frame of the video could be decoded (${error.stderr.split("\n")[0]?.slice(0, 200) || "ffmpeg failed"}).`);
    if (error instanceof ToolLimitError) throw new UnreadableVideoError(`making the poster frame was stopped: ${error.message}.`);
    throw error;
  }
}
