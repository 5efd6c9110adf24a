import { runTool, ToolFailedError, ToolLimitError } from "./tool-runner";
import { HDR_TO_SDR_FILTER } from "./video-filters";
import type { VideoProbe } from "./video-probe";
import { UnreadableVideoError } from "./video-probe";
import { ffmpegGlobalArguments, safeInputArguments, toolTimeoutMs, type VideoTools } from "./video-tools";
import type { VideoType } from "./video-type-detector";

/**
 * How the copy that browsers play (and that everyone but the owner gets) is made. Never the
 * original itself: it may carry the place it was filmed, the phone's serial and the like.
 * - "remux": already H.264 (8-bit 4:2:0) with AAC or no sound, in MP4/MOV/M4V, SDR, ≤ 1080p and
 *   not above the bitrate setting; the streams are copied as they are into a new MP4 without the
 *   metadata (seconds, whatever the length).
 * - "transcode": anything else; H.264/AAC at ≤ 1080p, HDR tone mapped.
 */
export type PlayableCopyPlan = "remux" | "transcode";

const PLAYABLE_MAX_SIDE = 1920;
const PLAYABLE_MAX_SHORT_SIDE = 1080;
// Inside 1920 × 1080 landscape or 1080 × 1920 portrait (the frames are already upright), never enlarged, even sizes.
const FIT_1080P =
  `scale=w='if(gte(iw,ih),min(iw,${PLAYABLE_MAX_SIDE}),min(iw,${PLAYABLE_MAX_SHORT_SIDE}))'` +
  `:h='if(gte(iw,ih),min(ih,${PLAYABLE_MAX_SHORT_SIDE}),min(ih,${PLAYABLE_MAX_SIDE}))'` +
  ":force_original_aspect_ratio=decrease:force_divisible_by=2";
/**
 * The playable copy's size for an upright video of this size, as FIT_1080P makes it (a remuxed copy
 * already fits, so the same sum holds): inside 1920 × 1080 or 1080 × 1920, never enlarged, even.
 * For what a page says of the copy (og:video:width/height) without probing it.
 */
export function playableCopySize(width: number, height: number): { width: number; height: number } {
  const [maxWidth, maxHeight] = width >= height ? [PLAYABLE_MAX_SIDE, PLAYABLE_MAX_SHORT_SIDE] : [PLAYABLE_MAX_SHORT_SIDE, PLAYABLE_MAX_SIDE];
  // ffmpeg's order: the box, each side rescaled from the other (rounded), the smaller kept, then
  // rounded to an even number (checked against ffmpeg's own output in the test).
  const boxWidth = Math.min(width, maxWidth);
  const boxHeight = Math.min(height, maxHeight);
  const even = (side: number) => Math.max(2, Math.round(side / 2) * 2);
  return {
    width: even(Math.min(boxWidth, Math.round((boxHeight * width) / height))),
    height: even(Math.min(boxHeight, Math.round((boxWidth * height) / width))),
  };
}

const REMUXABLE_CONTAINERS = new Set<VideoType>(["mp4", "m4v", "mov"]);

export function decidePlayableCopy(type: VideoType, probe: VideoProbe, maxBitRate: number): PlayableCopyPlan {
  const fitsSize = Math.max(probe.width, probe.height) <= PLAYABLE_MAX_SIDE && Math.min(probe.width, probe.height) <= PLAYABLE_MAX_SHORT_SIDE;
  const isRemuxable =
    REMUXABLE_CONTAINERS.has(type) &&
    probe.videoCodec === "h264" &&
    (probe.pixelFormat === "yuv420p" || probe.pixelFormat === "yuvj420p") &&
    (probe.audioCodec === null || probe.audioCodec === "aac") &&
    !probe.isHdr &&
    fitsSize &&
    (probe.bitRate === null || probe.bitRate <= maxBitRate);
  return isRemuxable ? "remux" : "transcode";
}

/**
 * Writes the playable copy as an MP4 at `outputPath`: the first video stream and the first audio
 * stream only (subtitle, data and attachment streams never leave), every metadata field and chapter
 * dropped (`-map_metadata -1`; the encoder's name too), the index at the front (faststart) so a
 * browser starts playing after the first range request.
 *
 * @throws UnreadableVideoError when ffmpeg cannot make it.
 */
export async function makePlayableCopy(
  tools: VideoTools,
  inputPath: string,
  type: VideoType,
  probe: VideoProbe,
  plan: PlayableCopyPlan,
  outputPath: string,
  /** "drop": no audio stream at all (a motion clip plays muted, so its sound would be bytes nobody hears). */
  sound: "keep" | "drop" = "keep",
): Promise<void> {
  const audio = sound === "keep" ? ["-map", "0:a:0?"] : ["-an"];
  const streams = ["-map", "0:v:0", ...audio, "-sn", "-dn", "-map_metadata", "-1", "-map_chapters", "-1"];
  const codecs =
    plan === "remux"
      ? ["-c", "copy"]
      : [
          "-vf", [...(probe.isHdr ? [HDR_TO_SDR_FILTER] : []), FIT_1080P, "format=yuv420p"].join(","),
          "-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-maxrate", "8M", "-bufsize", "16M", "-profile:v", "high",
          "-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709",
          "-c:a", "aac", "-b:a", "160k", "-ac", "2",
        ];
  const args = [
    ...ffmpegGlobalArguments(),
    ...safeInputArguments(inputPath, type),
    ...streams,
    ...codecs,
    "-fflags", "+bitexact", "-flags:v", "+bitexact", "-flags:a", "+bitexact",
    "-movflags", "+faststart", "-f", "mp4", "-y", `file:${outputPath}`,
  ];
  try {
    await runTool(tools.ffmpegPath, args, { timeoutMs: toolTimeoutMs(tools), maxStdoutBytes: 64 * 1024 });
  } catch (error) {
    if (error instanceof ToolFailedError) throw new UnreadableVideoError(`the playable copy could not be made (${error.stderr.split("\n")[0]?.slice(0, 200) || "ffmpeg failed"}).`);
    if (error instanceof ToolLimitError) throw new UnreadableVideoError(`making the playable copy was stopped: ${error.message}.`);
    throw error;
  }
}
