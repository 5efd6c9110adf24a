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
 * the type and stay within the pixel limit, and the data must not be truncated, corrupt, or fewer
 * rows than the header claims.
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
    await probe(filePath, limits, deadline, type === "jpeg" ? "warning" : "error");
  } catch (error) {
    if (type !== "jpeg" || !(error instanceof Error)) throw toInvalidInputError(error, deadline, CORRUPT_MESSAGE);
    // libjpeg only warns when the data ends before the rows the header promised (a truncated file,
    // or a header that lies about its size) and pads with grey; those are refused. Other warnings
    // (extraneous bytes, odd markers) are common in cameras' files and harmless: accepted.
    if (PREMATURE_END.test(error.message)) throw createInvalidInputError(CORRUPT_MESSAGE);
    try {
      await probe(filePath, limits, deadline, "error");
    } catch (secondError) {
      throw toInvalidInputError(secondError, deadline, CORRUPT_MESSAGE);
    }
  }
}

// "premature end of JPEG image" (truncated), "premature end of data segment" (fewer rows than the header claims).
const PREMATURE_END = /premature end/i;

async function probe(filePath: string, limits: ProcessingLimits, deadline: Deadline, failOn: "warning" | "error"): Promise<void> {
  await configureSharp()(filePath, { ...getUntrustedInputOptions(limits), failOn })
    .timeout({ seconds: deadline.remainingSeconds() })
    .resize({ width: PROBE_SIDE, height: PROBE_SIDE, fit: "inside" })
    .raw()
    .toBuffer();
}
