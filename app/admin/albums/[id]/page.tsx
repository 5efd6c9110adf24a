import type { Metadata } from "next";
import { forbidden, notFound } from "next/navigation";
import { cache } from "react";
import { listAllAlbumPhotos } from "@/src/albums/album-pages";
import { findAlbumByIdForViewer, listManageableAlbums } from "@/src/albums/albums.service";
import type { AlbumSummary } from "@/src/albums/albums.types";
import { AlbumEditor } from "@/src/albums/components/album-editor";
import { toEditorAlbum, toEditorPhoto } from "@/src/albums/components/album-editor-data";
import { toViewer } from "@/src/access/viewer";
import { requirePageUser } from "@/src/auth/page-guard";
import { getDb } from "@/src/db/client";
import { findOriginalNamesForViewer } from "@/src/photos/original-names.service";
import { AppError } from "@/src/errors/app-error";
import { ShareAlbumButton } from "@/src/shares/components/share-album-button";
import { AdminPage } from "@/src/ui/admin-page";
import { identifierFromSegment } from "@/src/http/route-segment";

interface AdminAlbumPageProps {
  params: Promise<{ id: string }>;
}

// Memoised per request: the title and the page read the album once. Not there, or not this
// user's to see: the 404 page; theirs to see but not to edit: the 403 page.
const findEditableAlbum = cache(async (id: string): Promise<AlbumSummary> => {
  const user = await requirePageUser("editor", `/admin/albums/${encodeURIComponent(id)}`);
  let album: AlbumSummary;
  try {
    album = await findAlbumByIdForViewer(getDb(), toViewer(user), identifierFromSegment(id) ?? notFound());
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") notFound();
    throw error;
  }
  if (!album.canEdit) forbidden();
  return album;
});

export async function generateMetadata({ params }: AdminAlbumPageProps): Promise<Metadata> {
  const album = await findEditableAlbum((await params).id);
  return { title: `Edit ${album.title}` };
}

// /admin/albums/[id] – edit one album: details, order, photos, cover; delete it (its owner, admins)
export default async function AdminAlbumPage({ params }: AdminAlbumPageProps) {
  const { id } = await params;
  const user = await requirePageUser("editor", `/admin/albums/${encodeURIComponent(id)}`);
  const album = await findEditableAlbum(id);
  const [{ photos, isComplete }, albums] = await Promise.all([listAllAlbumPhotos(getDb(), toViewer(user), album.id), listManageableAlbums(getDb(), user)]);
  // Untitled photos are told apart by file name where this user may know it (their own; an admin's all).
  const fileNames = await findOriginalNamesForViewer(getDb(), toViewer(user), photos.map((photo) => photo.id));
  return (
    <AdminPage role={user.role} title={album.title}>
      {/* Composed here: albums never import shares. */}
      <div className="album-share-bar">
        <ShareAlbumButton albumId={album.id} title={album.title} />
      </div>
      <AlbumEditor album={toEditorAlbum(album)} photos={photos.map((photo) => toEditorPhoto(photo, fileNames.get(photo.id)))} isComplete={isComplete} albums={albums.map(toEditorAlbum)} />
    </AdminPage>
  );
}
