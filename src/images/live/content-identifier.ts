// A Live Photo is two files an iPhone writes for one shot: the still (HEIC or JPEG) and a short
// MOV. Both carry the same content identifier, a UUID: the still in Apple's maker notes
// (ContentIdentifier, tag 0x11), the MOV in its QuickTime keys (com.apple.quicktime.content.identifier,
// which ffprobe reads with the rest of the probe). That identifier, not the file names, pairs them.

/** Apple's are UUIDs (36 characters); anything far longer is not one, and is not kept. */
const MAX_LENGTH = 100;

/**
 * A content identifier as it may be stored and compared: trimmed, 1-100 characters, no control
 * characters. Anything else (a 10 kB field, a NUL, a number) is ignored: null, the file pairs with nothing.
 */
export function cleanContentIdentifier(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const text = value.trim();
  if (text.length === 0 || text.length > MAX_LENGTH || /[\u0000-\u001f\u007f-\u009f]/.test(text)) return null;
  return text;
}
