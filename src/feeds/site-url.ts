import { getEnv } from "@/src/config/env";

/**
 * An absolute URL on this site, from the configured NEXTAUTH_URL and never from the request's Host
 * header: feeds, the sitemap and robots.txt are cached and shared, so a forged Host must not end up
 * in what others read (host-header poisoning).
 */
export function siteUrl(path: string): string {
  return new URL(path, getEnv().NEXTAUTH_URL).toString();
}
