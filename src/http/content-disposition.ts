/**
 * An RFC 6266 `attachment` header for any file name: a plain-ASCII fallback without quotes,
 * backslashes or control characters, and the exact name UTF-8-encoded in `filename*`.
 */
export function toAttachmentDisposition(fileName: string): string {
  const cleaned = fileName.normalize("NFC").replace(/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, "");
  const fallback = cleaned.replace(/[^\x20-\x7e]/g, "_").replace(/["\\/]/g, "_").slice(0, 150) || "photo";
  const encoded = encodeURIComponent(cleaned.slice(0, 255)).replace(/['()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
