import { spawn } from "node:child_process";
import { createInvalidInputError, type Deadline, type ProcessingLimits } from "../processing-limits";

/** Room for the TIFF's header and directories besides the pixels. */
const TIFF_OVERHEAD_BYTES = 64 * 1024;

/**
 * Decodes a RAW file's sensor data with LibRaw's `dcraw_emu` (Debian's `libraw-bin`) into an 8-bit
 * sRGB TIFF, turned as the camera recorded: camera white balance (`-w`), sRGB output (`-o 1`),
 * TIFF on stdout (`-T -Z -`). Bounded: killed when the deadline passes, and when it writes more
 * than an image within the pixel limit could take. dcraw_emu exits 0 even when it fails, so
 * failure is told by its message or an empty answer.
 *
 * @throws AppError INVALID_INPUT (422), which marks the photo failed with the reason: LibRaw's own
 *   words for a file it cannot decode, the time limit, or how to install dcraw_emu when it is missing.
 */
export async function decodeWithLibRaw(filePath: string, dcrawEmuPath: string, limits: ProcessingLimits, deadline: Deadline): Promise<Buffer> {
  deadline.assertNotExpired();
  const maximumBytes = Math.floor(limits.maxPixels) * 3 + TIFF_OVERHEAD_BYTES;
  return new Promise((resolve, reject) => {
    // A "--" would end dcraw_emu's options, but it does not know it: the path is absolute, so it
    // never starts with "-".
    const child = spawn(dcrawEmuPath, ["-T", "-w", "-o", "1", "-Z", "-", filePath], { stdio: ["ignore", "pipe", "pipe"] });
    const chunks: Buffer[] = [];
    let received = 0;
    let errorText = "";
    let refusal: Error | null = null;
    const stop = (error: Error) => {
      refusal ??= error;
      child.kill("SIGKILL");
    };
    const timer = setTimeout(() => stop(deadline.timeoutError()), Math.max(1, deadline.remainingMilliseconds()));
    child.stdout.on("data", (chunk: Buffer) => {
      received += chunk.length;
      if (received > maximumBytes) return stop(createInvalidInputError("The RAW file could not be decoded: its image is larger than the pixel limit."));
      chunks.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (errorText.length < 4000) errorText += chunk.toString("utf8");
    });
    child.on("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        error.code === "ENOENT"
          ? createInvalidInputError(
              `This RAW file has no embedded preview large enough, and LibRaw's dcraw_emu, which decodes it, was not found at "${dcrawEmuPath}". Install Debian's libraw-bin package or set DCRAW_EMU_PATH.`,
              error,
            )
          : createInvalidInputError("The RAW file could not be decoded: LibRaw could not be started.", error),
      );
    });
    child.on("close", () => {
      clearTimeout(timer);
      if (refusal) return reject(refusal);
      const output = Buffer.concat(chunks);
      const reason = libRawReason(errorText, filePath);
      if (output.length === 0 || reason) {
        return reject(createInvalidInputError(`The RAW file could not be decoded by LibRaw: ${reason ?? "it produced no image"}.`));
      }
      resolve(output);
    });
  });
}

/**
 * LibRaw's complaint without the temporary path it names ("Cannot unpack /tmp/…: Unexpected end of
 * file" becomes "unexpected end of file"), or null when it did not complain.
 */
function libRawReason(errorText: string, filePath: string): string | null {
  const lines = errorText
    .split("\n")
    .map((line) => line.split(filePath).join("").replace(/^[\s:]+/, "").trim())
    .filter((line) => line.length > 0);
  if (lines.length === 0) return null;
  const reasons = [...new Set(lines.map((line) => line.replace(/^Cannot \w+\s*:?\s*/i, "")))].filter((line) => line.length > 0);
  const text = (reasons.length > 0 ? reasons : lines).join("; ").slice(0, 200);
  return text.charAt(0).toLowerCase() + text.slice(1);
}
