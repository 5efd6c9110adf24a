/**
 * Turns a `callbackUrl` into a URL on our own origin. Anything pointing elsewhere (absolute URLs to
 * other hosts, `//host`, `/\host`, `javascript:`, `data:`) or that does not parse becomes the home
 * page. Never throws.
 */
export function toSafeRedirect(callbackUrl: unknown, baseUrl: string): string {
  const base = new URL(baseUrl);
  if (typeof callbackUrl !== "string" || callbackUrl.length === 0 || callbackUrl.length > 2048) return base.origin + "/";
  // Browsers read a backslash as a slash, so "/\evil.example" would leave the site.
  if (/[\\\u0000-\u001f]/.test(callbackUrl)) return base.origin + "/";
  try {
    const target = new URL(callbackUrl, base);
    if (target.origin !== base.origin) return base.origin + "/";
    return target.origin + target.pathname + target.search + target.hash;
  } catch {
    return base.origin + "/";
  }
}

/** The same, as a path on our origin ("/admin?tab=1"), for links inside the app. */
export function toSafeRedirectPath(callbackUrl: unknown, baseUrl: string): string {
  const target = new URL(toSafeRedirect(callbackUrl, baseUrl));
  return target.pathname + target.search + target.hash;
}
