// Which album a file goes into: with `--albums folders`, its folder path from the named folder (or
// zip) down, one album per level; with `--album`, one named album. Albums nest at most
// MAX_ALBUM_DEPTH levels, so deeper folders fold into the deepest album allowed (the plan says so).
import { MAX_ALBUM_DEPTH } from "@/src/albums/albums.types";

export type AlbumMode = { kind: "none" } | { kind: "folders" } | { kind: "one"; title: string };

/** The API's limit on an album's title. */
const MAX_TITLE_LENGTH = 200;

export interface AlbumTarget {
  /** Titles from the top level down; the last is the album the file goes into. */
  titles: string[];
  /** Folders below the deepest level that were folded into it. */
  folded: boolean;
}

function albumTitle(folder: string): string {
  const cleaned = folder.replace(/\p{Cc}/gu, " ").replace(/\s+/g, " ").trim();
  return (cleaned || "Untitled").slice(0, MAX_TITLE_LENGTH);
}

export function albumTargetFor(folders: readonly string[], mode: AlbumMode, maxDepth = MAX_ALBUM_DEPTH): AlbumTarget | null {
  if (mode.kind === "one") return { titles: [albumTitle(mode.title)], folded: false };
  if (mode.kind === "none" || folders.length === 0) return null;
  return { titles: folders.slice(0, maxDepth).map(albumTitle), folded: folders.length > maxDepth };
}

/** One key per album path (titles may hold any character but NUL). */
export function albumPathKey(titles: readonly string[]): string {
  return titles.join("\u0000");
}
