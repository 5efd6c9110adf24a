// Reading the first bytes of an uploaded file, for the detectors that decide its type by content
// (src/images/image-type-detector.ts, src/video/video-type-detector.ts). Out-of-range reads give an
// empty or zero answer, never an exception: a short file is simply not of that type.

export function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((value, index) => bytes[index] === value);
}

export function readAscii(bytes: Uint8Array, start: number, end: number): string {
  if (bytes.length < end) return "";
  return String.fromCharCode(...bytes.subarray(start, end));
}

/** A big-endian unsigned 32-bit integer. */
export function readUint32(bytes: Uint8Array, offset: number): number {
  if (bytes.length < offset + 4) return 0;
  return ((bytes[offset] << 24) | (bytes[offset + 1] << 16) | (bytes[offset + 2] << 8) | bytes[offset + 3]) >>> 0;
}
