// The layout of a folder `contact-sheet export` writes, shared by the export and by the import that
// reads one back:
//   manifest.json   format, version, when, from where, and every file's path, size and SHA-256
//   albums.json     albums with nesting (parentId, path), manual order and cover, photos by SHA-256
//   tags.json       every tag name on the exported photos, with how many
//   shares.json     share links' settings and photos, never their keys or password hashes
//   photos/<year>/<month>/<original>            the original, byte for byte
//   photos/<year>/<month>/<original>.xmp        its XMP sidecar (Lightroom, digiKam, darktable)
//   photos/<year>/<month>/<original>.contact-sheet.json   every field, for `contact-sheet import`

export const EXPORT_FORMAT = "contact-sheet-export";
export const EXPORT_FORMAT_VERSION = 1;

export const EXPORT_FILES = {
  manifest: "manifest.json",
  albums: "albums.json",
  tags: "tags.json",
  shares: "shares.json",
} as const;
