import type { Metadata } from "next";
import { FEED_CONTENT_TYPES, FEED_FORMATS, feedPath } from "./feeds.service.types";

type AlternateTypes = NonNullable<NonNullable<Metadata["alternates"]>["types"]>;

const FORMAT_NAMES = { rss: "RSS", json: "JSON Feed" } as const;

/**
 * The autodiscovery <link rel="alternate">s of a page that has feeds (/, a public album, a tag), for
 * Next.js metadata: `alternates: { types: feedLinkTypes("/albums/x", "Album title") }`. Undefined
 * when the page has none (an album that is not public), so the page shows no link that would 404.
 * Paths are relative: Next.js makes them absolute from metadataBase (NEXTAUTH_URL), never the Host.
 */
export function feedLinkTypes(pagePath: string, title: string, hasFeed = true): AlternateTypes | undefined {
  if (!hasFeed) return undefined;
  return Object.fromEntries(
    FEED_FORMATS.map((format) => [FEED_CONTENT_TYPES[format].split(";")[0], [{ url: feedPath(pagePath, format), title: `${title} (${FORMAT_NAMES[format]})` }]]),
  );
}
