/** Headers that /media answers with, shared by the Next.js route and the fast path in server.mjs. */

/** Public variants live at content-addressed URLs, so their bytes never change: cache for a year. */
export const PUBLIC_MEDIA_CACHE_CONTROL = "public, max-age=31536000, immutable";
export const PRIVATE_MEDIA_CACHE_CONTROL = "private, no-store";

/**
 * What Next.js adds to every answer of the /media route: its own Vary, and next.config.ts
 * `headers()`. The fast path answers without Next.js, so it adds them itself;
 * tests/media-cache.test.ts compares both answers header by header, so they cannot drift apart unnoticed.
 */
export const SITE_WIDE_HEADERS: Readonly<Record<string, string>> = {
  // Next.js's app router varies every answer on its client-navigation headers; no browser sends
  // them for an <img>, so it changes nothing for caches, but the two paths stay indistinguishable.
  Vary: "rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
};
