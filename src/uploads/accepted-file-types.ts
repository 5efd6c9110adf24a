// What the uploader and the share target offer to take (photos and videos). The server judges each file by its bytes;
// these only keep obviously wrong files out of the list. HEIC and HEIF often arrive without a MIME
// type, so the extensions are listed too.
export const ACCEPTED_FILE_TYPES = [
  "image/jpeg", "image/png", "image/webp", "image/avif", "image/heic", "image/heif", "image/tiff", "image/gif",
  ".jpg", ".jpeg", ".png", ".webp", ".avif", ".heic", ".heif", ".tif", ".tiff", ".gif",
  // Videos (judged by their bytes too; .mts and .m2ts often arrive without a MIME type).
  "video/mp4", "video/quicktime", "video/x-m4v", "video/3gpp", "video/webm", "video/x-matroska", "video/x-msvideo", "video/mp2t",
  ".mp4", ".mov", ".m4v", ".3gp", ".webm", ".mkv", ".avi", ".mts", ".m2ts",
  // Camera RAW (judged by their bytes too).
  ".dng", ".cr2", ".cr3", ".nef", ".arw", ".raf", ".rw2", ".orf", ".pef",
];
