// Where a Google Takeout file goes with `--albums folders`. Takeout writes every photo twice over:
// once in a year folder ("Photos from 2019", which Google makes, not the owner) and once in each
// of the owner's albums, whose folder holds a metadata.json with the album's real title (the folder
// name is cut and made safe for a file system). So below a "Google Photos" folder a year folder
// makes no album, and an album folder makes one top-level album titled from its metadata.json.
// The year folders' names are localised; the ones below are those reported by Takeout tools
// (GooglePhotosTakeoutHelper, immich-go).

const GOOGLE_PHOTOS_FOLDER = /^Google (Photos|Fotos|Foto)$/i;
const YEAR_FOLDER = /^(Photos from|Fotos von|Photos de|Fotos de|Foto del|Foto's uit|Fotos från|Zdjęcia z|Fotky z roku) \d{4}$/i;

export type TakeoutPlace =
  /** Not below a Takeout's "Google Photos" folder: the folder tree makes the albums. */
  | { kind: "not-takeout" }
  /** Google's own year folders, or the "Google Photos" folder itself: no album. */
  | { kind: "no-album" }
  /** An album's folder: its title is in its metadata.json, else the folder's name. */
  | { kind: "album"; folder: string };

/** `folders`: an import source's folders, from the named folder (or zip) down. */
export function takeoutPlaceOf(folders: readonly string[]): TakeoutPlace {
  const top = folders.findIndex((folder) => GOOGLE_PHOTOS_FOLDER.test(folder));
  if (top < 0) return { kind: "not-takeout" };
  const folder = folders[top + 1];
  if (folder === undefined || YEAR_FOLDER.test(folder)) return { kind: "no-album" };
  return { kind: "album", folder };
}
