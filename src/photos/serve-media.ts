import "server-only";
import { Readable } from "node:stream";
import type { NextRequest } from "next/server";
import { findSessionUser } from "@/src/auth/current-user";
import { getDb } from "@/src/db/client";
import type { VariantFormat } from "@/src/db/database";
import { getStorage } from "@/src/storage/app-storage";
import { canViewPhoto } from "./photo-access";
import { findVariantByKey } from "./photos.repository";

const CONTENT_TYPES: Record<VariantFormat, string> = { jpeg: "image/jpeg", webp: "image/webp", avif: "image/avif" };
const PUBLIC_CACHE = "public, max-age=31536000, immutable";
const PRIVATE_CACHE = "private, no-store";

function notFound(): Response {
  return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain", "Cache-Control": PRIVATE_CACHE } });
}

/** One `bytes=a-b`, `bytes=a-` or `bytes=-n` range; null for none, "invalid" for anything unsatisfiable. */
export function parseRange(header: string | null, size: number): { start: number; end: number } | null | "invalid" {
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

/**
 * GET /media/<key>: a variant's bytes. Public photos' variants are content-addressed and cached
 * for a year; every other variant is checked against the viewer on each request and never cached.
 * A variant the viewer may not see answers 404, like one that does not exist.
 */
export async function serveMedia(request: NextRequest, key: string): Promise<Response> {
  const variant = await findVariantByKey(getDb(), key);
  if (!variant) return notFound();
  const isPublic = variant.visibility === "public";
  if (!isPublic) {
    const viewer = await findSessionUser(request.cookies);
    if (!canViewPhoto(viewer, variant)) return notFound();
  }
  const etag = `"${key.split("/").pop()}"`;
  const headers: Record<string, string> = {
    "Content-Type": CONTENT_TYPES[variant.format],
    "Cache-Control": isPublic ? PUBLIC_CACHE : PRIVATE_CACHE,
    ETag: etag,
    "Accept-Ranges": "bytes",
    "X-Content-Type-Options": "nosniff",
  };
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });

  const range = parseRange(request.headers.get("range"), variant.byte_size);
  if (range === "invalid") {
    return new Response(null, { status: 416, headers: { ...headers, "Content-Range": `bytes */${variant.byte_size}` } });
  }
  const object = await getStorage().read(key, range ?? undefined);
  const body = Readable.toWeb(object.body) as ReadableStream;
  headers["Content-Length"] = String(object.contentLength);
  if (!range) return new Response(body, { status: 200, headers });
  headers["Content-Range"] = `bytes ${range.start}-${range.end}/${variant.byte_size}`;
  return new Response(body, { status: 206, headers });
}
