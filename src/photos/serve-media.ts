import "server-only";
import { Readable } from "node:stream";
import type { NextRequest } from "next/server";
import { toViewer } from "@/src/access/viewer";
import { findSessionUser } from "@/src/auth/current-user";
import { getDb } from "@/src/db/client";
import type { VariantFormat } from "@/src/db/database";
import { parseRange } from "@/src/media/byte-range";
import { getHotMedia, MAX_HOT_MEDIA_ENTRY_BYTES } from "@/src/media/hot-media-fast-path";
import { PRIVATE_MEDIA_CACHE_CONTROL, PUBLIC_MEDIA_CACHE_CONTROL } from "@/src/media/media-headers";
import { getStorage } from "@/src/storage/app-storage";
import { readStoredBytes } from "@/src/storage/read-stored-bytes";
import { canViewPhoto } from "./photo-access";
import { parseMediaPath } from "./photo-publication";
import { findVariantByKey } from "./photos.repository";

const CONTENT_TYPES: Record<VariantFormat, string> = { jpeg: "image/jpeg", webp: "image/webp", avif: "image/avif" };

function notFound(): Response {
  return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain", "Cache-Control": PRIVATE_MEDIA_CACHE_CONTROL } });
}

/**
 * GET /media/<publication key>/<storage key>: a variant's bytes. Public photos' variants are
 * content-addressed and cached for a year; every other variant is checked against the viewer on
 * each request and never cached. A variant the viewer may not see answers 404, like one that does
 * not exist, and so does a URL from before the photo last stopped being public.
 */
export async function serveMedia(request: NextRequest, mediaPath: string): Promise<Response> {
  const hotMedia = getHotMedia();
  await hotMedia.confirmFreshness();
  // Read before the database: an offer made from a row that a change has since overtaken is refused.
  const epochAtLookup = hotMedia.cache.epoch;
  const parsed = parseMediaPath(mediaPath);
  if (!parsed) return notFound();
  const { storageKey, publicationKey } = parsed;
  const variant = await findVariantByKey(getDb(), storageKey);
  if (!variant || variant.publication_key !== publicationKey) return notFound();
  const isPublic = variant.visibility === "public";
  if (!isPublic) {
    const viewer = toViewer(await findSessionUser(request.cookies));
    if (!canViewPhoto(viewer, variant)) return notFound();
  }
  const etag = `"${storageKey.split("/").pop()}"`;
  const headers: Record<string, string> = {
    "Content-Type": CONTENT_TYPES[variant.format],
    "Cache-Control": isPublic ? PUBLIC_MEDIA_CACHE_CONTROL : PRIVATE_MEDIA_CACHE_CONTROL,
    ETag: etag,
    "Accept-Ranges": "bytes",
    "X-Content-Type-Options": "nosniff",
  };
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });

  const range = parseRange(request.headers.get("range"), variant.byte_size);
  if (range === "invalid") {
    return new Response(null, { status: 416, headers: { ...headers, "Content-Range": `bytes */${variant.byte_size}` } });
  }
  if (isPublic && !range && variant.byte_size <= MAX_HOT_MEDIA_ENTRY_BYTES) {
    // Small public variants are read whole and offered to server.mjs's fast path (see hot-media-fast-path.ts).
    const bytes = await readStoredBytes(getStorage(), storageKey);
    hotMedia.cache.offer({ key: mediaPath, photoId: variant.photo_id, bytes, contentType: headers["Content-Type"], etag }, epochAtLookup);
    headers["Content-Length"] = String(bytes.length);
    return new Response(new Uint8Array(bytes), { status: 200, headers });
  }
  const object = await getStorage().read(storageKey, range ?? undefined);
  const body = Readable.toWeb(object.body) as ReadableStream;
  headers["Content-Length"] = String(object.contentLength);
  if (!range) return new Response(body, { status: 200, headers });
  headers["Content-Range"] = `bytes ${range.start}-${range.end}/${variant.byte_size}`;
  return new Response(body, { status: 206, headers });
}
