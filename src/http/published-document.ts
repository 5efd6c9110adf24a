import { createHash } from "node:crypto";

/**
 * How feeds, the sitemap and robots.txt answer: the same bytes for everyone, so a shared cache may
 * keep them for a few minutes (a photo that stops being public leaves them within that time; its
 * old variant URL is dead at once anyway), with an ETag from the bytes so a reader that polls
 * gets a 304 while nothing changed.
 */
export const PUBLISHED_DOCUMENT_CACHE_CONTROL = "public, max-age=300";

export function answerPublishedDocument(request: Request, body: string, contentType: string): Response {
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;
  const headers = { "Cache-Control": PUBLISHED_DOCUMENT_CACHE_CONTROL, ETag: etag };
  const ifNoneMatch = request.headers.get("if-none-match");
  if (ifNoneMatch && ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag || tag.trim() === "*")) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(body, { status: 200, headers: { ...headers, "Content-Type": contentType } });
}

/** A permanent redirect to another path of this site (an album's old slug, a tag's other spelling). */
export function answerMovedDocument(path: string): Response {
  return new Response(null, { status: 308, headers: { Location: path, "Cache-Control": PUBLISHED_DOCUMENT_CACHE_CONTROL } });
}
