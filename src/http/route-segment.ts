import { parseIdentifierSegment } from "@/src/validation/input-text";

/** A dynamic segment as typed, whether or not Next.js decoded it already; a malformed escape is left as it is (and names nothing). */
export function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * A page's dynamic segment as an identifier (decoded as decodedSegment does), or null when it
 * cannot name anything: a NUL, a control character, too long. Pages read their params themselves,
 * so they ask here what the wrappers' params schemas ask, and answer 404 for null.
 */
export function identifierFromSegment(segment: string): string | null {
  return parseIdentifierSegment(decodedSegment(segment));
}
