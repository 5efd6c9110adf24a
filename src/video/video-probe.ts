import { cleanContentIdentifier } from "@/src/images/live/content-identifier";
import { runTool, ToolFailedError, ToolLimitError } from "./tool-runner";
import { formatDuration } from "./video-duration";
import { safeInputArguments, toolTimeoutMs, type VideoTools } from "./video-tools";
import type { VideoType } from "./video-type-detector";

/** What a video is, read by ffprobe when it is uploaded. */
export interface VideoProbe {
  durationMs: number;
  /** As shown, after the rotation. */
  width: number;
  height: number;
  /** Degrees clockwise the player turns the stored frames (the display matrix, or the old `rotate` tag). */
  rotation: 0 | 90 | 180 | 270;
  videoCodec: string;
  audioCodec: string | null;
  pixelFormat: string | null;
  /** PQ (smpte2084) or HLG (arib-std-b67) transfer: needs tone mapping to look right in an SDR browser. */
  isHdr: boolean;
  /** Bits per second of the whole file, when ffprobe knows. */
  bitRate: number | null;
  /** ISO 8601, as photos store it: with the offset when the file recorded one, UTC for QuickTime's creation_time. */
  takenAt: string | null;
  gps: { latitude: number; longitude: number; altitude: number | null } | null;
  cameraMake: string | null;
  cameraModel: string | null;
  /** Apple's content identifier: the MOV of a Live Photo carries its still's (src/images/live/content-identifier.ts). */
  contentIdentifier: string | null;
}

/** A video we will not take, with the reason in words the uploader understands (422). */
export class UnreadableVideoError extends Error {
  override name = "UnreadableVideoError";
}

/** Bounds on what a video may be: longer or larger ones are refused before any frame is decoded. */
export interface VideoLimits {
  maxDurationSeconds: number;
  /** 8K (7680 × 4320 and a little more): 16K frames would need gigabytes per decoded frame. */
  maxPixels: number;
}

export const DEFAULT_VIDEO_MAX_PIXELS = 8192 * 4352;

// ffprobe's JSON for a real file is a few kilobytes; a hostile file's metadata may not make it megabytes.
const MAX_PROBE_OUTPUT_BYTES = 2 * 1024 * 1024;
// Text fields we keep are cut to this length; a hostile metadata field cannot fill a row.
const MAX_TEXT_LENGTH = 100;

/**
 * Probes the file with ffprobe (only its container and stream headers: no frame is decoded) and
 * checks it against the limits.
 *
 * @throws UnreadableVideoError when ffprobe cannot read it, it has no video stream, or it passes a limit.
 */
export async function probeVideo(tools: VideoTools, filePath: string, type: VideoType, limits: VideoLimits): Promise<VideoProbe> {
  let output: Buffer;
  try {
    const args = ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", ...safeInputArguments(filePath, type)];
    ({ stdout: output } = await runTool(tools.ffprobePath, args, { timeoutMs: toolTimeoutMs(tools), maxStdoutBytes: MAX_PROBE_OUTPUT_BYTES }));
  } catch (error) {
    if (error instanceof ToolFailedError) throw new UnreadableVideoError(`the video cannot be read (${firstLine(error.stderr) || "ffprobe found no video in it"}).`);
    if (error instanceof ToolLimitError) throw new UnreadableVideoError(`reading the video was stopped: ${error.message.replace(/^.*?: it /, "it ")}.`);
    throw error;
  }
  const probe = parseProbeOutput(JSON.parse(output.toString("utf8")) as unknown);
  if (probe.durationMs > limits.maxDurationSeconds * 1000) {
    throw new UnreadableVideoError(`the video is ${formatDuration(probe.durationMs)} long; the longest accepted is ${formatDuration(limits.maxDurationSeconds * 1000)}.`);
  }
  if (probe.width * probe.height > limits.maxPixels) {
    throw new UnreadableVideoError(`the video is ${probe.width} × ${probe.height} pixels; the largest accepted is 8K.`);
  }
  return probe;
}

interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  color_transfer?: string;
  duration?: string;
  disposition?: { attached_pic?: number };
  tags?: Record<string, string>;
  side_data_list?: Array<{ rotation?: number }>;
}

interface ProbeOutput {
  streams?: ProbeStream[];
  format?: { duration?: string; bit_rate?: string; tags?: Record<string, string> };
}

/**
 * Turns ffprobe's JSON into a VideoProbe. Pure, so each camera's way of writing metadata is tested
 * without ffprobe.
 *
 * @throws UnreadableVideoError when there is no video stream or no duration.
 */
export function parseProbeOutput(raw: unknown): VideoProbe {
  const output = (raw ?? {}) as ProbeOutput;
  const streams = Array.isArray(output.streams) ? output.streams : [];
  // A cover picture (attached_pic) is a video stream of one frame, not the video.
  const video = streams.find((stream) => stream.codec_type === "video" && stream.disposition?.attached_pic !== 1);
  if (!video || !video.width || !video.height) throw new UnreadableVideoError("the file has no video stream we can read.");
  const audio = streams.find((stream) => stream.codec_type === "audio");
  const seconds = Number(output.format?.duration ?? video.duration);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new UnreadableVideoError("the video has no length (it may be cut short).");

  const rotation = readRotation(video);
  const turnedSideways = rotation === 90 || rotation === 270;
  const tags = lowerCaseKeys({ ...video.tags, ...output.format?.tags });
  const bitRate = Number(output.format?.bit_rate);
  return {
    durationMs: Math.round(seconds * 1000),
    width: turnedSideways ? video.height : video.width,
    height: turnedSideways ? video.width : video.height,
    rotation,
    videoCodec: cleanText(video.codec_name) ?? "unknown",
    audioCodec: cleanText(audio?.codec_name),
    pixelFormat: cleanText(video.pix_fmt),
    isHdr: video.color_transfer === "smpte2084" || video.color_transfer === "arib-std-b67",
    bitRate: Number.isFinite(bitRate) && bitRate > 0 ? Math.round(bitRate) : null,
    takenAt: readTakenAt(tags),
    gps: parseIso6709(tags["com.apple.quicktime.location.iso6709"] ?? tags.location ?? tags["location-eng"]),
    cameraMake: cleanText(tags["com.apple.quicktime.make"] ?? tags.make),
    cameraModel: cleanText(tags["com.apple.quicktime.model"] ?? tags.model),
    contentIdentifier: cleanContentIdentifier(tags["com.apple.quicktime.content.identifier"]),
  };
}

/**
 * ffprobe gives the display matrix's rotation counter-clockwise (an iPhone held upright: -90); the
 * player turns the frames the other way, so clockwise it is the negation. Old files carry a
 * `rotate` tag, clockwise.
 */
function readRotation(video: ProbeStream): 0 | 90 | 180 | 270 {
  const matrix = video.side_data_list?.find((side) => typeof side.rotation === "number")?.rotation;
  const clockwise = matrix !== undefined ? -matrix : Number(video.tags?.rotate ?? 0);
  const normalised = (((Math.round(clockwise / 90) * 90) % 360) + 360) % 360;
  return normalised as 0 | 90 | 180 | 270;
}

/**
 * Apple's `com.apple.quicktime.creationdate` is local time with its offset ("2023-12-24T18:30:00+0100")
 * and wins; QuickTime's `creation_time` is UTC. Zero dates (1904 and 1970, what cameras without a
 * clock write) count as none.
 */
function readTakenAt(tags: Record<string, string>): string | null {
  const apple = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?([+-])(\d{2}):?(\d{2})$/.exec(tags["com.apple.quicktime.creationdate"]?.trim() ?? "");
  if (apple && isPlausibleYear(apple[1])) return `${apple[1]}T${apple[2]}${apple[3]}${apple[4]}:${apple[5]}`;
  const utc = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:\.\d+)?Z?$/.exec(tags.creation_time?.trim() ?? "");
  if (utc && isPlausibleYear(utc[1])) return `${utc[1]}T${utc[2]}+00:00`;
  return null;
}

function isPlausibleYear(date: string): boolean {
  const year = Number(date.slice(0, 4));
  return year > 1970 && year < 2200 && !Number.isNaN(Date.parse(`${date}T00:00:00Z`));
}

/**
 * ISO 6709 as cameras and phones write it: "+48.8584+002.2945/", with an optional altitude
 * ("+35.6586+139.7454+010.000/"). Null when it does not parse or is out of range.
 */
export function parseIso6709(value: string | undefined): VideoProbe["gps"] {
  const match = /^([+-]\d{1,2}(?:\.\d+)?)([+-]\d{1,3}(?:\.\d+)?)([+-]\d+(?:\.\d+)?)?(?:CRS[^/]*)?\/?$/.exec(value?.trim() ?? "");
  if (!match) return null;
  const latitude = Number(match[1]);
  const longitude = Number(match[2]);
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  return { latitude, longitude, altitude: match[3] === undefined ? null : Number(match[3]) };
}

function lowerCaseKeys(tags: Record<string, string | undefined>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(tags)) if (typeof value === "string") result[key.toLowerCase()] = value;
  return result;
}

/** Metadata text as a person would read it: control characters gone, trimmed, bounded; null when empty. */
function cleanText(value: string | undefined): string | null {
  const text = value?.replace(/[\u0000-\u001f\u007f]/g, "").trim().slice(0, MAX_TEXT_LENGTH);
  return text ? text : null;
}

function firstLine(text: string): string {
  return text.split("\n").find((line) => line.trim() !== "")?.trim().slice(0, 200) ?? "";
}
