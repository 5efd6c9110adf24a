/** The feeds' formats, types and paths: client-safe, for pages' <link>s and the route contracts alike. */
export type FeedFormat = "rss" | "json";

export const FEED_FORMATS: readonly FeedFormat[] = ["rss", "json"];

export const FEED_CONTENT_TYPES: Record<FeedFormat, string> = {
  rss: "application/rss+xml; charset=utf-8",
  json: "application/feed+json; charset=utf-8",
};

const FEED_FILES: Record<FeedFormat, string> = { rss: "feed.xml", json: "feed.json" };

/** Where a page's feed of this format is: /feed.xml for /, /albums/<slug>/feed.json, /tags/<key>/feed.xml… */
export function feedPath(pagePath: string, format: FeedFormat): string {
  return `${pagePath === "/" ? "" : pagePath}/${FEED_FILES[format]}`;
}
