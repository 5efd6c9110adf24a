import type { VariantFormat } from "@/src/db/database";
import { type ByteRange, parseRange } from "./byte-range";
import { isRangeStillValid, matchesIfNoneMatch } from "./conditional-request";
import { PRIVATE_MEDIA_CACHE_CONTROL, PUBLIC_MEDIA_CACHE_CONTROL } from "./media-headers";

/** What /media knows about a variant before it reads any byte of it. */
export interface MediaEntry {
  /** The variant's size in bytes. */
  size: number;
  /** The quoted ETag: the storage key's last segment, which names the content. */
  etag: string;
  contentType: string;
  /** Public variants are cached for a year; every other one is never cached. */
  isPublic: boolean;
}

/** The request headers that change the answer. */
export interface MediaConditions {
  ifNoneMatch: string | null | undefined;
  range: string | null | undefined;
  /** A video player resuming a download sends it with its Range (conditional-request.ts). */
  ifRange: string | null | undefined;
}

/**
 * How /media answers: 304 (no body), 416 (no body), 200 with the whole variant or 206 with one
 * range of it. The caller sends the bytes `range` names (all of them when null).
 */
export type MediaAnswer =
  | { status: 304 | 416; headers: Record<string, string>; range: null }
  | { status: 200; headers: Record<string, string>; range: null }
  | { status: 206; headers: Record<string, string>; range: ByteRange };

/** What /media serves: a photo's (or a video poster's) variants, and a video's playable copy. */
export type MediaFormat = VariantFormat | "mp4";

const CONTENT_TYPES: Record<MediaFormat, string> = { jpeg: "image/jpeg", webp: "image/webp", avif: "image/avif", mp4: "video/mp4" };

export function toMediaContentType(format: MediaFormat): string {
  return CONTENT_TYPES[format];
}

/** The ETag of a stored variant: its file name, which changes whenever its bytes do. */
export function toMediaEtag(storageKey: string): string {
  return `"${storageKey.split("/").pop()}"`;
}

/**
 * Decides the answer to a GET of a variant, for the Next.js route and server.mjs's fast path alike,
 * so the two cannot answer differently: 304 on a matching If-None-Match, 416 for a Range that
 * cannot be satisfied, 206 for one range, 200 otherwise (a Range whose If-Range names other bytes
 * too). `Content-Length` is the length of what is to be sent.
 */
export function decideMediaAnswer(conditions: MediaConditions, entry: MediaEntry): MediaAnswer {
  const headers: Record<string, string> = {
    "Content-Type": entry.contentType,
    "Cache-Control": entry.isPublic ? PUBLIC_MEDIA_CACHE_CONTROL : PRIVATE_MEDIA_CACHE_CONTROL,
    ETag: entry.etag,
    "Accept-Ranges": "bytes",
    "X-Content-Type-Options": "nosniff",
  };
  if (matchesIfNoneMatch(conditions.ifNoneMatch, entry.etag)) return { status: 304, headers, range: null };
  const range = isRangeStillValid(conditions.ifRange, entry.etag) ? parseRange(conditions.range, entry.size) : null;
  if (range === "invalid") return { status: 416, headers: { ...headers, "Content-Range": `bytes */${entry.size}` }, range: null };
  if (!range) return { status: 200, headers: { ...headers, "Content-Length": String(entry.size) }, range: null };
  return {
    status: 206,
    headers: { ...headers, "Content-Length": String(range.end - range.start + 1), "Content-Range": `bytes ${range.start}-${range.end}/${entry.size}` },
    range,
  };
}
