import { getEnv } from "@/src/config/env";

// Absolute URLs of this site, for what others keep and show: feeds, the sitemap, robots.txt, Open
// Graph tags and oEmbed. Always from the configured NEXTAUTH_URL, never from a request's Host
// header: these answers are cached and shared, so a forged Host must not end up in what others read
// (host-header poisoning).

/** The site's origin, e.g. "https://photos.example". */
export function siteOrigin(): string {
  return new URL(getEnv().NEXTAUTH_URL).origin;
}

/** An absolute URL on this site for a path that starts with "/". */
export function siteUrl(path: string): string {
  return new URL(path, siteOrigin()).toString();
}
