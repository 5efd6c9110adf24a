import "server-only";
import { getEnv } from "@/src/config/env";

/** The site's origin, from the configured NEXTAUTH_URL: never from a request's Host header. */
export function siteOrigin(): string {
  return new URL(getEnv().NEXTAUTH_URL).origin;
}

/** An absolute URL on this site for a path that starts with "/". */
export function absoluteUrl(path: string): string {
  return `${siteOrigin()}${path}`;
}
