interface HeaderReader {
  get(name: string): string | null;
}

/**
 * Whether a cookie-authenticated, state-changing request may come from this page. Route handlers
 * get no origin check from Next.js, so we refuse cross-site ones here: an Origin of another site or
 * "null", or no Origin with `Sec-Fetch-Site: cross-site`. Requests with neither header (curl,
 * scripts) carry no browser's ambient cookies on a victim's behalf, so they pass.
 */
export function isSameOriginRequest(headers: HeaderReader, appOrigin: string): boolean {
  const origin = headers.get("origin");
  if (origin !== null) return origin === appOrigin;
  const fetchSite = headers.get("sec-fetch-site");
  return fetchSite === null || fetchSite === "same-origin" || fetchSite === "none";
}
