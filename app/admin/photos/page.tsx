import type { Metadata } from "next";
import { toViewer } from "@/src/access/viewer";
import { albumPickerChoices } from "@/src/albums/album-tree";
import { listManageableAlbums } from "@/src/albums/albums.service";
import { requirePageUser } from "@/src/auth/page-guard";
import { getDb } from "@/src/db/client";
import { LibraryFilterBar } from "@/src/photos/components/library/library-filter-bar";
import { libraryFilterToSearchParams, parseLibraryFilter } from "@/src/photos/library-filters";
import { getLibraryPage, listLibraryCameraChoices } from "@/src/photos/library.service";
import { listTagsForViewer } from "@/src/tags/tags.service";
import { AdminPage } from "@/src/ui/admin-page";
import { FaceConsentAsk } from "../face-consent-ask";
import { OrganisedLibrary } from "./organised-library";

export const metadata: Metadata = { title: "Photos" };

// /admin/photos – the library: every photo the editor manages (an admin: all), filtered, with bulk actions
export default async function AdminPhotosPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const filter = parseLibraryFilter(await searchParams);
  const query = libraryFilterToSearchParams(filter).toString();
  const user = await requirePageUser("editor", `/admin/photos${query ? `?${query}` : ""}`);
  const [page, cameras, albums, tags] = await Promise.all([
    getLibraryPage(getDb(), user, { filter, limit: 100 }),
    listLibraryCameraChoices(getDb(), user),
    listManageableAlbums(getDb(), user),
    listTagsForViewer(getDb(), toViewer(user)),
  ]);
  const albumChoices = albumPickerChoices(albums);
  return (
    <AdminPage
      role={user.role}
      title="Photos"
      intro={user.role === "admin" ? "Every photo on the site, newest first. Select some to change them together." : "Your photos, newest first. Select some to change them together."}
    >
      <FaceConsentAsk viewer={toViewer(user)} />
      <LibraryFilterBar filter={filter} choices={{ cameras, albums: albumChoices.map((choice) => ({ id: choice.id, title: choice.label })), tags }} />
      {/* Keyed by the filter: a new filter starts a fresh selection and list. */}
      <OrganisedLibrary key={query} initialPage={page} filter={filter} albums={albumChoices} />
    </AdminPage>
  );
}
