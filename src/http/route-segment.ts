/** A dynamic segment as typed, whether or not Next.js decoded it already; a malformed escape is left as it is (and names nothing). */
export function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
