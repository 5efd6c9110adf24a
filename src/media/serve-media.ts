import "server-only";
import { Readable } from "node:stream";
import { getStorage } from "@/src/storage/app-storage";
import { readStoredBytes } from "@/src/storage/read-stored-bytes";
import { getHotMedia, MAX_HOT_MEDIA_ENTRY_BYTES } from "./hot-media-fast-path";
import { decideMediaAnswer, type MediaFormat, toMediaContentType, toMediaEtag } from "./media-answer";
import { PRIVATE_MEDIA_CACHE_CONTROL } from "./media-headers";

/** A variant the viewer may have, as the photos domain found it (see findServableVariant). */
export interface ServableVariant {
  storageKey: string;
  photoId: string;
  format: MediaFormat;
  byteSize: number;
  isPublic: boolean;
}

function notFound(): Response {
  return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain", "Cache-Control": PRIVATE_MEDIA_CACHE_CONTROL } });
}

/**
 * GET /media/<media path>: a variant's bytes, or 404 when `findVariant` finds none this viewer may
 * have. Public variants are offered to server.mjs's fast path (hot-media-fast-path.ts), which
 * answers them without Next.js afterwards: small ones answered whole with their bytes (held in
 * memory), the others, once streamed (a video's Range requests), by where they are stored.
 */
export async function serveMedia(
  request: Request,
  mediaPath: string,
  findVariant: () => Promise<ServableVariant | null>,
): Promise<Response> {
  const hotMedia = getHotMedia();
  await hotMedia.confirmFreshness();
  // Read before the database: an offer made from a row that a change has since overtaken is refused.
  const epochAtLookup = hotMedia.cache.epoch;
  const variant = await findVariant();
  if (!variant) return notFound();
  const answer = decideMediaAnswer(
    { ifNoneMatch: request.headers.get("if-none-match"), range: request.headers.get("range"), ifRange: request.headers.get("if-range") },
    { size: variant.byteSize, etag: toMediaEtag(variant.storageKey), contentType: toMediaContentType(variant.format), isPublic: variant.isPublic },
  );
  const { headers } = answer;
  if (answer.status === 304 || answer.status === 416) return new Response(null, { status: answer.status, headers });

  // Content-Length is set from what storage gives, which is the truth should a row's byte_size be off.
  if (variant.isPublic && answer.status === 200 && variant.byteSize <= MAX_HOT_MEDIA_ENTRY_BYTES) {
    const bytes = await readStoredBytes(getStorage(), variant.storageKey);
    hotMedia.cache.offer(
      { key: mediaPath, photoId: variant.photoId, bytes, contentType: headers["Content-Type"], etag: headers.ETag },
      epochAtLookup,
    );
    return new Response(new Uint8Array(bytes), { status: 200, headers: { ...headers, "Content-Length": String(bytes.length) } });
  }
  const object = await getStorage().read(variant.storageKey, answer.range ?? undefined);
  if (variant.isPublic) {
    // The size storage reports, which the fast path checks again before each answer.
    hotMedia.cache.offer(
      { key: mediaPath, photoId: variant.photoId, bytes: null, storageKey: variant.storageKey, size: object.size, contentType: headers["Content-Type"], etag: headers.ETag },
      epochAtLookup,
    );
  }
  const body = Readable.toWeb(object.body) as ReadableStream;
  return new Response(body, { status: answer.status, headers: { ...headers, "Content-Length": String(object.contentLength) } });
}
