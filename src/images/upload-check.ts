import { readFile } from "node:fs/promises";
import { endsInsideABox } from "./heic-worker-decoder";
import type { ImageType } from "./image-type-detector";
import { CORRUPT_MESSAGE, decodePhoto, type DecodedPhoto, readCheckedHeader } from "./photo-decoder";
import { createInvalidInputError, Deadline, type ProcessingLimits } from "./processing-limits";
import { VISIBLE_DECODE_WIDTH } from "./variant-plan";

/**
 * The checks an upload passes before it is stored, so that a file the worker could never process is
 * refused with 422 while the uploader waits, and no photo row is made for it: the header must match
 * the type and stay within the pixel limit, and the data must not be truncated, corrupt, or fewer
 * rows than the header claims.
 *
 * The check is a real decode, at most VISIBLE_DECODE_WIDTH wide (a JPEG or WebP then decodes at a
 * fraction of its size, yet every byte of its compressed data is read, so truncation is found). It
 * answers those pixels, so that the phase that makes the photo visible need not decode again; null
 * for HEIC, whose decode takes seconds and is checked by its box structure instead, and for RAW.
 *
 * @throws AppError INVALID_INPUT (422) with a message a person understands.
 */
export async function checkUploadedImage(filePath: string, type: ImageType, limits: ProcessingLimits): Promise<DecodedPhoto | null> {
  // A RAW's structure was judged by its type check; developing it takes seconds (LibRaw), so it is
  // left to the worker, which marks the photo failed with LibRaw's reason when it cannot be decoded.
  if (type === "raw") return null;
  if (type === "heic") {
    await readCheckedHeader(filePath, type, limits, new Deadline(limits.timeoutSeconds));
    // libheif decodes seconds of HEVC; the box structure tells a cut-off file for the cost of a read.
    if (endsInsideABox(await readFile(filePath))) throw createInvalidInputError(CORRUPT_MESSAGE);
    return null;
  }
  if (type !== "jpeg") return decodePhoto(filePath, type, limits, { maxWidth: VISIBLE_DECODE_WIDTH });
  try {
    return await decodePhoto(filePath, type, limits, { maxWidth: VISIBLE_DECODE_WIDTH, failOn: "warning" });
  } catch (error) {
    // libjpeg only warns when the data ends before the rows the header promised (a truncated file,
    // or a header that lies about its size) and pads with grey; those are refused. Other warnings
    // (extraneous bytes, odd markers) are common in cameras' files and harmless: decoded again,
    // accepting them.
    const decoderMessage = error instanceof Error && error.message === CORRUPT_MESSAGE ? (error.cause as Error | undefined)?.message : undefined;
    if (decoderMessage === undefined || PREMATURE_END.test(decoderMessage)) throw error;
    return decodePhoto(filePath, type, limits, { maxWidth: VISIBLE_DECODE_WIDTH });
  }
}

// "premature end of JPEG image" (truncated), "premature end of data segment" (fewer rows than the header claims).
const PREMATURE_END = /premature end/i;
