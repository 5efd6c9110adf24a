import type { ShareZip, SharedPhotoDownload } from "@/src/shares/share-downloads.service";
import { toAttachmentDisposition } from "./content-disposition";
import type { SuccessResponse } from "./handler-contract";

// As every download: never shown inline, never cached by anyone but this browser.
const DOWNLOAD_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "sandbox; default-src 'none'",
  "Cache-Control": "private, no-store",
};

/**
 * Which file a share download is: `original` (the original's own pixels, its metadata filtered
 * losslessly: JPEG) or `copy` (the download copy; for a link offering originals, the original was
 * of a format that cannot be filtered in place).
 */
export const SHARE_DOWNLOAD_KIND_HEADER = "X-Download-Kind";

/**
 * Next.js drops Content-Length from route handlers' answers; server.mjs turns this header into it
 * (the browser's progress bar needs it for a ZIP it cannot size otherwise).
 */
function exactLength(length: number): Record<string, string> {
  return { "Content-Length": String(length), "X-Exact-Content-Length": String(length) };
}

export function toSharedPhotoResponse(download: SharedPhotoDownload): Response {
  return new Response(new Uint8Array(download.bytes), {
    headers: {
      ...DOWNLOAD_HEADERS,
      "Content-Type": "image/jpeg",
      ...exactLength(download.bytes.length),
      "Content-Disposition": toAttachmentDisposition(download.fileName),
      [SHARE_DOWNLOAD_KIND_HEADER]: download.isFilteredOriginal ? "original" : "copy",
    },
  });
}

export function toShareZipResponse(zip: ShareZip, options: { withBody: boolean }): Response {
  if (!options.withBody) void zip.body.cancel();
  return new Response(options.withBody ? zip.body : null, {
    headers: {
      ...DOWNLOAD_HEADERS,
      "Content-Type": "application/zip",
      ...exactLength(zip.length),
      "Content-Disposition": toAttachmentDisposition(zip.fileName),
    },
  });
}

export const SHARED_PHOTO_RESPONSE: SuccessResponse = {
  status: 200,
  description:
    "The photo as an attachment (image/jpeg), named by its title or the share's numbering: the original's pixels with its metadata filtered by the link's policy (JPEG, when the link offers originals), otherwise the download copy. X-Download-Kind says which.",
  contentType: "image/jpeg",
  headers: { "Content-Disposition": "attachment", [SHARE_DOWNLOAD_KIND_HEADER]: "original or copy" },
};

export const SHARE_ZIP_RESPONSE: SuccessResponse = {
  status: 200,
  description:
    "Every photo of the share, in its order, as a stored (uncompressed) ZIP streamed at once with its exact Content-Length; entries as the single download gives them, named uniquely.",
  contentType: "application/zip",
  headers: { "Content-Disposition": "attachment", "Content-Length": "the exact length" },
};
