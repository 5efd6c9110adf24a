interface HeaderReader {
  get(name: string): string | null;
}

/**
 * Whether a server action's POST comes from a page of this site (SECURITY.md 62): its Origin must
 * name the host the request was made to (the first `X-Forwarded-Host`, else `Host`), the rule
 * Next.js applies itself after us, answering a mismatch with a 500 and an error log; refused here
 * first, as a 403. Stricter than `isSameOriginRequest` for API writes in one way: a browser always
 * sends Origin with a POST from script, so an action call without one is not from our pages.
 *
 * Not tied to NEXTAUTH_URL, unlike API writes: the load-more actions are reads that visitors use,
 * and a family reaching the site by another name of the same server (127.0.0.1, the machine's
 * address on the home network) must still see the next page. A page of another site cannot make
 * a browser send our host's name as its Origin.
 */
export function isServerActionOriginAllowed(headers: HeaderReader): boolean {
  const origin = headers.get("origin");
  if (!origin) return false;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return false;
  }
  const forwardedHost = headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  const requestedHost = forwardedHost || headers.get("host");
  return originHost !== "" && originHost === requestedHost;
}
