import type { Metadata } from "next";
import Link from "next/link";
import { listAlbumsForViewer } from "@/src/albums/albums.service";
import { toAlbumCards } from "@/src/albums/components/album-card-data";
import { AlbumGrid } from "@/src/albums/components/album-grid";
import { hasRole } from "@/src/access/roles";
import { signedInUser } from "@/src/access/viewer";
import { findCurrentViewer } from "@/src/auth/current-user";
import { getDb } from "@/src/db/client";

// A whole new document, as the header's admin links are: a client-side navigation would keep the
// public pages' analytics script running on the admin pages.
const MANAGE_ALBUMS_PATH = "/admin/albums";

export const metadata: Metadata = { title: "Albums", description: "Photos gathered into albums." };

// /albums – the top-level albums this viewer may see, each with its cover, title and photo count.
export default async function AlbumsPage() {
  const viewer = await findCurrentViewer();
  const albums = await listAlbumsForViewer(getDb(), viewer, { parentId: null });
  const user = signedInUser(viewer);
  const canEdit = user !== null && hasRole(user.role, "editor");
  return (
    <section className="albums-page">
      <header className="albums-header">
        <h1>Albums</h1>
        {canEdit && (
          <a className="button secondary" href={MANAGE_ALBUMS_PATH}>
            Manage albums
          </a>
        )}
      </header>
      {albums.length === 0 ? (
        <div className="albums-empty">
          <p>{user ? "No albums to show yet." : "No public albums yet."}</p>
          <p>
            <Link href="/">See all photos</Link>
          </p>
        </div>
      ) : (
        <AlbumGrid albums={toAlbumCards(albums, viewer)} label="Albums" />
      )}
    </section>
  );
}
