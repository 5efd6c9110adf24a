import { hasControlCharacter } from "@/src/validation/text-characters";

// How many rounds of percent-decoding we undo when looking for a hidden "//": more than any
// server or browser on the way applies, and few enough to stay cheap.
const MAXIMUM_DECODING_ROUNDS = 4;

const STARTS_WITH_TWO_SLASHES = /^[/\\]{2}/;

/**
 * Whether a browser, or a server that decodes the path once more, could read this path as "//host"
 * or "/\host": a reference to another host. The URL parser has already resolved dot segments, so
 * "/.//evil.example" arrives here as "//evil.example"; "%2f", "%5c" and "%2e", once or several times
 * encoded, are decoded (and the dot segments they hid resolved) before looking again.
 */
function namesAnotherHost(pathname: string): boolean {
  let path = pathname;
  for (let round = 0; round < MAXIMUM_DECODING_ROUNDS; round += 1) {
    if (STARTS_WITH_TWO_SLASHES.test(path)) return true;
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      return false;
    }
    if (STARTS_WITH_TWO_SLASHES.test(decoded) || hasControlCharacter(decoded)) return true;
    const resolved = new URL(decoded, "http://resolve.invalid").pathname;
    // Nothing left to decode (the URL parser re-encodes what decoding undid, such as a space).
    if (resolved === path) return false;
    path = resolved;
  }
  // Still changing after this many rounds: no ordinary path looks like that.
  return true;
}

/**
 * Turns a `callbackUrl` into an absolute URL on our own origin. Anything pointing elsewhere (absolute
 * URLs to other hosts, `//host`, `/\host`, `javascript:`, `data:`), any path that resolves or decodes
 * to `//host` (`/.//host`, `/%2e//host`, `/%2f%2fhost`), or anything that does not parse becomes the
 * home page. Never throws.
 */
export function toSafeRedirect(callbackUrl: unknown, baseUrl: string): string {
  const base = new URL(baseUrl);
  const home = base.origin + "/";
  if (typeof callbackUrl !== "string" || callbackUrl.length === 0 || callbackUrl.length > 2048) return home;
  // Browsers read a backslash as a slash and drop tabs and newlines, so "/\evil.example" and
  // "/\t/evil.example" would leave the site.
  if (callbackUrl.includes("\\") || hasControlCharacter(callbackUrl)) return home;
  try {
    const target = new URL(callbackUrl, base);
    if (target.origin !== base.origin) return home;
    if (namesAnotherHost(target.pathname)) return home;
    return target.origin + target.pathname + target.search + target.hash;
  } catch {
    return home;
  }
}
