// What the uploader and the share target offer to take. The server judges each file by its bytes;
// these only keep obviously wrong files out of the list. HEIC and HEIF often arrive without a MIME
// type, so the extensions are listed too.
export const ACCEPTED_FILE_TYPES = [
  "image/jpeg", "image/png", "image/webp", "image/avif", "image/heic", "image/heif", "image/tiff", "image/gif",
  ".jpg", ".jpeg", ".png", ".webp", ".avif", ".heic", ".heif", ".tif", ".tiff", ".gif",
  ".dng", ".cr2", ".cr3", ".nef", ".arw", ".raf", ".rw2", ".orf", ".pef",
];
