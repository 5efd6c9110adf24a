import { Readable } from "node:stream";
import type { PhotoDownload } from "@/src/photos/photos.service";
import { getStorage } from "@/src/storage/app-storage";
import { toAttachmentDisposition } from "./content-disposition";

// A download is never shown inline: an original may be a polyglot (a JPEG with HTML appended).
const DOWNLOAD_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "sandbox; default-src 'none'",
  "Cache-Control": "private, no-store",
};

/** The answer to a download: the original streamed from storage as it was uploaded, or a download copy. */
export async function toDownloadResponse(download: PhotoDownload): Promise<Response> {
  if (download.kind === "copy") {
    return new Response(new Uint8Array(download.bytes), {
      headers: {
        ...DOWNLOAD_HEADERS,
        "Content-Type": "image/jpeg",
        "Content-Length": String(download.bytes.length),
        "Content-Disposition": toAttachmentDisposition(download.fileName),
      },
    });
  }
  const { photo } = download;
  const object = await getStorage().read(photo.original_key);
  return new Response(Readable.toWeb(object.body) as ReadableStream, {
    headers: {
      ...DOWNLOAD_HEADERS,
      "Content-Type": "application/octet-stream",
      "Content-Length": String(object.contentLength),
      "Content-Disposition": toAttachmentDisposition(photo.original_name),
    },
  });
}

/** A stored file other than the original (a pair's RAW, a motion photo's clip), as an attachment like the original. */
export async function toStoredFileResponse(file: { key: string; fileName: string; contentType: string }): Promise<Response> {
  const object = await getStorage().read(file.key);
  return new Response(Readable.toWeb(object.body) as ReadableStream, {
    headers: {
      ...DOWNLOAD_HEADERS,
      "Content-Type": file.contentType,
      "Content-Length": String(object.contentLength),
      "Content-Disposition": toAttachmentDisposition(file.fileName),
    },
  });
}
