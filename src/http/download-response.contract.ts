import type { SuccessResponse } from "./handler-contract";

/** How the API reference describes what toDownloadResponse answers. */
export const DOWNLOAD_RESPONSE: SuccessResponse = {
  status: 200,
  description:
    "The file as an attachment: the untouched original (application/octet-stream) for its owner and admins, otherwise a download copy (image/jpeg) without location, serial numbers or maker notes.",
  contentType: "application/octet-stream",
  headers: { "Content-Disposition": "attachment, with the photo's file name" },
};

/** The original as uploaded, always an attachment. */
export const ORIGINAL_RESPONSE: SuccessResponse = {
  status: 200,
  description: "The file exactly as it was uploaded, as an attachment.",
  contentType: "application/octet-stream",
  headers: { "Content-Disposition": "attachment, with the name it was uploaded with" },
};

/** A companion file (a RAW+JPEG pair's RAW, a motion photo's clip) as stored, always an attachment. */
export const COMPANION_RESPONSE: SuccessResponse = {
  status: 200,
  description: "The companion file exactly as it was stored, as an attachment.",
  contentType: "application/octet-stream",
  headers: { "Content-Disposition": "attachment, with the file's name" },
};
