/** A byte range to send: `start` and `end` are inclusive offsets into the file. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * One `bytes=a-b`, `bytes=a-` or `bytes=-n` range of a file of `size` bytes; null when there is no
 * Range header, "invalid" for anything unsatisfiable (answered 416). Multiple ranges are refused:
 * no browser or player asks for them when fetching an image.
 */
export function parseRange(header: string | null | undefined, size: number): ByteRange | null | "invalid" {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return "invalid";
  if (match[1] === "") {
    const suffix = Number(match[2]);
    return suffix === 0 ? "invalid" : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  return start > end || start >= size ? "invalid" : { start, end };
}
