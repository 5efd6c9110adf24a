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
