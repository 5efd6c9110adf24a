import { AppError } from "@/src/errors/app-error";
import { hasControlCharacter } from "@/src/validation/input-text";

/**
 * A keyset position (the sort value, the id, and whatever else the list needs) as an opaque,
 * URL-safe cursor, for every list that pages by keyset. Reading one back refuses anything it did
 * not write: the wrong number of parts, an empty part, or a control character (PostgreSQL refuses
 * a NUL in a parameter with an error, and none ever comes from `encodeKeysetCursor`).
 */
export function encodeKeysetCursor(...parts: string[]): string {
  return Buffer.from(parts.join("|")).toString("base64url");
}

/** The parts of a cursor `encodeKeysetCursor` wrote with `count` parts; 400 for anything else. */
export function decodeKeysetCursor(cursor: string, count: number, message = "The cursor is not valid."): string[] {
  const text = Buffer.from(cursor, "base64url").toString();
  const parts = text.split("|");
  if (parts.length !== count || parts.some((part) => part === "") || hasControlCharacter(text)) throw new AppError("BAD_REQUEST", message);
  return parts;
}
