import { AppError } from "@/src/errors/app-error";

/**
 * Bounds on the work one photo may cause. The caller reads them from the environment; this module
 * never touches `process.env`.
 */
export interface ProcessingLimits {
  /** Largest accepted width × height of the decoded photo, checked from the header before decoding. */
  maxPixels: number;
  /** Wall-clock budget, in seconds, for one `decodePhoto` or one `encodeVariants` call. */
  timeoutSeconds: number;
  /** LibRaw's `dcraw_emu`, which a RAW decode may run (within the same budget); "dcraw_emu" on the PATH when omitted. */
  dcrawEmuPath?: string;
}

/** 120 megapixels: above every current camera (the largest common sensors are about 100 MP). */
export const DEFAULT_MAX_PIXELS = 120_000_000;

/** Defaults for callers and tests that have no configuration of their own. */
export const DEFAULT_PROCESSING_LIMITS: ProcessingLimits = { maxPixels: DEFAULT_MAX_PIXELS, timeoutSeconds: 120 };

/**
 * One budget shared by every step of a call, so that several slow steps cannot each take the whole
 * timeout.
 */
export class Deadline {
  private readonly endsAt: number;

  constructor(
    private readonly seconds: number,
    private readonly now: () => number = performance.now.bind(performance),
  ) {
    this.endsAt = this.now() + seconds * 1000;
  }

  /** Seconds left, rounded up for sharp's `timeout()` (whole seconds, and 0 would mean "no timeout"). */
  remainingSeconds(): number {
    return Math.min(3600, Math.max(1, Math.ceil((this.endsAt - this.now()) / 1000)));
  }

  /** Milliseconds left, for timers around work sharp does not run (the HEIC worker). */
  remainingMilliseconds(): number {
    return this.endsAt - this.now();
  }

  hasExpired(): boolean {
    return this.now() >= this.endsAt;
  }

  /** Throws the timeout error once the budget is spent; called between steps that sharp cannot time itself. */
  assertNotExpired(): void {
    if (this.hasExpired()) throw this.timeoutError();
  }

  timeoutError(cause?: unknown): AppError {
    return createInvalidInputError(`Processing the image took longer than ${this.seconds} seconds.`, cause);
  }
}

/** A 422 for a file we accept in principle but cannot process; the original error is kept for the log. */
export function createInvalidInputError(message: string, cause?: unknown): AppError {
  const error = new AppError("INVALID_INPUT", message);
  if (cause !== undefined) error.cause = cause;
  return error;
}

/** A 415 for content that is not one of the image types we accept. */
export function createUnsupportedTypeError(): AppError {
  return new AppError(
    "UNSUPPORTED_MEDIA_TYPE",
    "This file is not a supported image. Upload JPEG, PNG, WebP, AVIF, HEIC/HEIF, TIFF or GIF.",
  );
}

/** Throws a 422 when the header's dimensions are above the pixel limit (a pixel bomb or a huge scan). */
export function assertWithinPixelLimit(width: number, height: number, limits: ProcessingLimits): void {
  if (!(width > 0 && height > 0)) {
    throw createInvalidInputError("The image header gives no usable dimensions.");
  }
  if (width * height > limits.maxPixels) {
    const megapixels = Math.round(limits.maxPixels / 1_000_000);
    throw createInvalidInputError(
      `The image is too large: ${width} × ${height} pixels is above the ${megapixels}-megapixel limit.`,
    );
  }
}

/**
 * Turns a failure of a step that reads untrusted input into a 422: a timeout when the budget ran
 * out (recognised by the clock, not by sharp's message), otherwise the given message.
 */
export function toInvalidInputError(error: unknown, deadline: Deadline, message: string): AppError {
  if (error instanceof AppError) return error;
  if (deadline.hasExpired()) return deadline.timeoutError(error);
  return createInvalidInputError(message, error);
}
