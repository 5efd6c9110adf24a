import "server-only";
import { getEnv } from "@/src/config/env";
import { getLogger } from "@/src/log/logger";

const PURGE_TIMEOUT_MS = 10_000;

/**
 * Tells a CDN in front of the site (CDN_PURGE_URL, when set) that these URLs are gone: a POST with
 * `{ "urls": ["https://photos.example/media/…", …] }`. The origin already answers 404 for them;
 * this only shortens how long a CDN keeps serving its copy. Runs in the background and never
 * fails the change that caused it: a purge that fails is logged with its URLs, for a manual purge.
 */
export function purgeFromCdn(paths: string[]): void {
  const endpoint = getEnv().CDN_PURGE_URL;
  if (!endpoint || paths.length === 0) return;
  const urls = paths.map((path) => new URL(path, getEnv().NEXTAUTH_URL).toString());
  fetch(endpoint, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ urls }),
    signal: AbortSignal.timeout(PURGE_TIMEOUT_MS),
  })
    .then((response) => {
      if (!response.ok) throw new Error(`The CDN purge endpoint answered ${response.status}`);
    })
    .catch((error: unknown) => getLogger().error({ err: error, urls }, "CDN purge failed; purge these URLs by hand"));
}
