import sharp, { type SharpOptions } from "sharp";
import type { ProcessingLimits } from "./processing-limits";

/** libvips loaders for the types we accept; each name also covers its file, buffer and source variants. */
const ACCEPTED_LOADERS = [
  "VipsForeignLoadJpeg",
  "VipsForeignLoadPng",
  "VipsForeignLoadWebp",
  "VipsForeignLoadTiff",
  "VipsForeignLoadNsgif",
  "VipsForeignLoadHeif",
];

let isConfigured = false;

/**
 * Configures sharp once per process before its first use here.
 *
 * - Every libvips loader except the accepted ones is blocked, so SVG, PDF, FITS, Matlab, vips-native
 *   and the like cannot be parsed even if content sniffing were bypassed (a second line behind
 *   `detectImageType`).
 * - libvips' operation cache is turned off: it keys loads on the file name, and temporary upload
 *   paths can be reused, so a cached decode could hand back another upload's pixels.
 */
export function configureSharp(): typeof sharp {
  if (!isConfigured) {
    sharp.block({ operation: ["VipsForeignLoad"] });
    sharp.unblock({ operation: ACCEPTED_LOADERS });
    sharp.cache(false);
    isConfigured = true;
  }
  return sharp;
}

/** Input options for decoding an untrusted file: the guards every decode carries. */
export function getUntrustedInputOptions(limits: ProcessingLimits): SharpOptions {
  return {
    // "error" refuses truncated and corrupt data but keeps photos whose decoders only warn
    // (extraneous bytes, odd markers), which cameras produce and users expect to upload.
    failOn: "error",
    limitInputPixels: Math.floor(limits.maxPixels),
    autoOrient: true,
    // First frame or page only: an animated GIF/WebP with thousands of frames costs one frame.
    animated: false,
    pages: 1,
    page: 0,
  };
}

/** Input options for pixels this module decoded itself; the limits still apply as a safety net. */
export function getRawInputOptions(
  image: { width: number; height: number; channels: 3 | 4 },
  limits: ProcessingLimits,
): SharpOptions {
  return {
    raw: { width: image.width, height: image.height, channels: image.channels },
    limitInputPixels: Math.floor(limits.maxPixels),
    failOn: "error",
  };
}

/**
 * Options for a header-only read. The pixel limit is checked by the caller from the dimensions read
 * here, so that a pixel bomb gets a message with its size; `metadata()` never decodes pixel data.
 */
export function getHeaderInputOptions(): SharpOptions {
  return { failOn: "error", limitInputPixels: false, animated: false, pages: 1, page: 0 };
}
