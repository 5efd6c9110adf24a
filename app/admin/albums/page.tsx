import type { Metadata } from "next";
import { listManageableAlbums } from "@/src/albums/albums.service";
import { toEditorAlbum } from "@/src/albums/components/album-editor-data";
import { AlbumsAdmin } from "@/src/albums/components/albums-admin";
import { requirePageUser } from "@/src/auth/page-guard";
import { getDb } from "@/src/db/client";
import { AdminPage } from "@/src/ui/admin-page";

export const metadata: Metadata = { title: "Albums" };

// /admin/albums – the albums this editor may edit (admins: all), and a form for a new one (editors)
export default async function AdminAlbumsPage() {
  const user = await requirePageUser("editor", "/admin/albums");
  const albums = await listManageableAlbums(getDb(), user);
  return (
    <AdminPage role={user.role} title="Albums" intro="Gather photos into albums, nest them, and choose who may see each. A photo in an album keeps its own visibility: visitors only see the album's photos they may see anyway.">
      <AlbumsAdmin albums={albums.map(toEditorAlbum)} />
    </AdminPage>
  );
}
