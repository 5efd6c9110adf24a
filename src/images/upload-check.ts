import { readFile } from "node:fs/promises";
import { endsInsideABox } from "./heic-worker-decoder";
import type { ImageType } from "./image-type-detector";
import { CORRUPT_MESSAGE, readCheckedHeader } from "./photo-decoder";
import { createInvalidInputError, Deadline, type ProcessingLimits, toInvalidInputError } from "./processing-limits";
import { configureSharp, getUntrustedInputOptions } from "./sharp-setup";

// A thumbnail this small lets libjpeg decode at 1/8 scale (shrink-on-load): a 24 MP JPEG costs tens
// of milliseconds, yet every byte of its compressed data is read, so truncation is found.
const PROBE_SIDE = 64;

/**
 * The checks an upload passes before it is stored, so that a file the worker could never process is
 * refused with 422 while the uploader waits, and no photo row is made for it: the header must match
 * the type and stay within the pixel limit, and the data must not be truncated or corrupt.
 *
 * @throws AppError INVALID_INPUT (422) with a message a person understands.
 */
export async function checkUploadedImage(filePath: string, type: ImageType, limits: ProcessingLimits): Promise<void> {
  const deadline = new Deadline(limits.timeoutSeconds);
  await readCheckedHeader(filePath, type, limits, deadline);
  if (type === "heic") {
    // libheif decodes seconds of HEVC; the box structure tells a cut-off file for the cost of a read.
    if (endsInsideABox(await readFile(filePath))) throw createInvalidInputError(CORRUPT_MESSAGE);
    return;
  }
  try {
    await configureSharp()(filePath, getUntrustedInputOptions(limits))
      .timeout({ seconds: deadline.remainingSeconds() })
      .resize({ width: PROBE_SIDE, height: PROBE_SIDE, fit: "inside" })
      .raw()
      .toBuffer();
  } catch (error) {
    throw toInvalidInputError(error, deadline, CORRUPT_MESSAGE);
  }
}
