interface HeaderReader {
  get(name: string): string | null;
}

/**
 * Whether a server action's POST comes from a page of this site (SECURITY.md 62). Stricter than
 * `isSameOriginRequest` for API writes: a browser always sends Origin with a POST from script, so
 * an action call without one is not from our pages and is refused too.
 *
 * Next.js checks the origin again itself, against the host it was asked for (the first
 * `X-Forwarded-Host`, else `Host`), and answers a mismatch with a 500 and an error log. So the
 * Origin must be this site's configured origin AND name that host: anything Next.js would refuse
 * is refused here first, as a 403.
 */
export function isServerActionOriginAllowed(headers: HeaderReader, appOrigin: string): boolean {
  const origin = headers.get("origin");
  if (origin === null || origin !== appOrigin) return false;
  const forwardedHost = headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  const requestedHost = forwardedHost || headers.get("host");
  return requestedHost === new URL(appOrigin).host;
}
