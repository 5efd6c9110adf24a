import { escapeText } from "entities";

/**
 * Text as feeds and sitemaps may carry it. The libraries escape markup (`<`, `&`, `]]>`); what they
 * cannot escape are characters XML 1.0 forbids outright (C0 controls but tab and line breaks,
 * lone surrogates, U+FFFE/U+FFFF), which would make the whole document unreadable: those go.
 */
const NOT_XML_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function cleanFeedText(text: string): string {
  return text.replace(NOT_XML_CHARACTERS, "");
}

/** One line of text (a title): line breaks and tabs become one space, the ends trimmed. */
export function cleanFeedLine(text: string): string {
  return cleanFeedText(text).replace(/[\r\n\t\u2028\u2029]+/g, " ").trim();
}

/**
 * How a feed reader takes a field, and so how text goes into it:
 * - "line": plain text on one line (every title, media:description, an attachment's title, JSON
 *   Feed's description);
 * - "text": plain text, line breaks kept (JSON Feed's content_text);
 * - "rss-html": RSS's `<description>`, the channel's and each item's, which readers render as HTML:
 *   the text with its markup escaped, so `<script>` shows as written and never runs.
 * The format's own escaping on top (XML, CDATA split at every `]]>`, JSON strings) is feedsmith's.
 */
export type FeedField = "line" | "text" | "rss-html";

/** The one way any text (a site's, an album's, a tag's or a photo's) reaches a feed field. */
export function toFeedField(text: string, field: FeedField): string {
  if (field === "line") return cleanFeedLine(text);
  const cleaned = cleanFeedText(text).trim();
  return field === "rss-html" ? escapeText(cleaned) : cleaned;
}
