import { readAscii, readUint32, startsWith } from "@/src/images/file-head";
/**
 * The video containers we accept, decided from the file's first bytes, never from its name or
 * declared type. Each names the one demuxer ffmpeg is told to use for it (ffmpeg-arguments.ts), so
 * a file can never make ffmpeg pick a demuxer that opens other files (HLS playlists, concat lists).
 */
export type VideoType = "mp4" | "m4v" | "mov" | "3gp" | "webm" | "mkv" | "avi" | "mts";

export const VIDEO_CONTENT_TYPES: Record<VideoType, string> = {
  mp4: "video/mp4",
  m4v: "video/x-m4v",
  mov: "video/quicktime",
  "3gp": "video/3gpp",
  webm: "video/webm",
  mkv: "video/x-matroska",
  avi: "video/x-msvideo",
  mts: "video/mp2t",
};

// ISO-BMFF brands of ordinary video files (phones, cameras, encoders). HEIF, AVIF and CR3 brands are
// not here: those are still images (src/images) or RAW.
const MP4_BRANDS = new Set(["isom", "iso2", "iso3", "iso4", "iso5", "iso6", "mp41", "mp42", "avc1", "dash", "MSNV", "mmp4", "NDAS", "XAVC", "f4v "]);
const M4V_BRANDS = new Set(["M4V ", "M4VH", "M4VP"]);
const QUICKTIME_BRAND = "qt  ";
const STILL_IMAGE_BRANDS = new Set(["crx ", "heic", "heix", "heim", "heis", "mif1", "msf1", "avif", "avis", "jp2 ", "jpx "]);
// QuickTime files older than the ftyp box start straight with one of these atoms.
const BARE_QUICKTIME_ATOMS = new Set(["moov", "mdat", "wide", "free", "skip", "pnot"]);
const MPEG_TS_SYNC = 0x47;
const EBML_MAGIC = [0x1a, 0x45, 0xdf, 0xa3];

/**
 * Decides a video's container from its first bytes; the 256 the upload keeps for images are enough
 * (the ftyp box, an EBML header's DocType, the sync bytes of two MPEG-TS packets). Null for anything
 * else.
 */
export function detectVideoType(head: Uint8Array): VideoType | null {
  if (readAscii(head, 4, 8) === "ftyp") return detectIsoBmffVideo(head);
  if (startsWith(head, EBML_MAGIC)) return detectMatroska(head);
  if (readAscii(head, 0, 4) === "RIFF" && readAscii(head, 8, 12) === "AVI ") return "avi";
  if (isMpegTransportStream(head)) return "mts";
  if (BARE_QUICKTIME_ATOMS.has(readAscii(head, 4, 8)) && readUint32(head, 0) >= 8) return "mov";
  return null;
}

function detectIsoBmffVideo(head: Uint8Array): VideoType | null {
  const boxSize = readUint32(head, 0);
  if (boxSize < 16 || head.length < 16) return null;
  const major = readAscii(head, 8, 12);
  const compatible: string[] = [];
  for (let offset = 16; offset + 4 <= Math.min(head.length, boxSize); offset += 4) compatible.push(readAscii(head, offset, offset + 4));
  if (major === QUICKTIME_BRAND) return "mov";
  if (M4V_BRANDS.has(major)) return "m4v";
  if (major.startsWith("3gp") || major.startsWith("3g2")) return "3gp";
  if (MP4_BRANDS.has(major)) return "mp4";
  // An unknown major brand that still promises a plain MP4 or QuickTime layout, unless the file says
  // it is a still image (HEIF, AVIF) or a RAW (Canon's CR3 lists isom too).
  if (STILL_IMAGE_BRANDS.has(major) || compatible.some((brand) => STILL_IMAGE_BRANDS.has(brand))) return null;
  if (compatible.includes(QUICKTIME_BRAND)) return "mov";
  if (compatible.some((brand) => MP4_BRANDS.has(brand))) return "mp4";
  return null;
}

/** EBML header: its DocType says WebM or Matroska; both are read by ffmpeg's matroska demuxer. */
function detectMatroska(head: Uint8Array): VideoType | null {
  const text = readAscii(head, 0, Math.min(head.length, 64));
  if (text.includes("webm")) return "webm";
  if (text.includes("matroska")) return "mkv";
  return null;
}

/** MPEG transport stream (.ts: 188-byte packets) or AVCHD's .mts/.m2ts (192 bytes: a 4-byte time code first). */
function isMpegTransportStream(head: Uint8Array): boolean {
  if (head[0] === MPEG_TS_SYNC && head[188] === MPEG_TS_SYNC) return true;
  return head[4] === MPEG_TS_SYNC && head[196] === MPEG_TS_SYNC;
}
