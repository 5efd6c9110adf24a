"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import toast from "react-hot-toast";
import { AdminPanel } from "@/src/ui/admin-page";
import type { AlbumSort } from "../albums.types";
import { describeAlbumPhotos } from "./album-card-data";
import { type EditorAlbum, parentChoices, SORT_CHOICES, VISIBILITY_CHOICES, VISIBILITY_HINT } from "./album-editor-data";
import { AlbumCoverImage } from "./album-grid";
import { createAlbumRequest } from "./albums-api";
import type { Visibility } from "@/src/db/database";

const VISIBILITY_BADGES: Record<Visibility, { label: string; className: string }> = {
  public: { label: "Public", className: "badge badge-success" },
  unlisted: { label: "Unlisted", className: "badge" },
  members: { label: "Members", className: "badge" },
  private: { label: "Private", className: "badge badge-warning" },
};

/** The album list of /admin/albums with the "New album" form above it. */
export function AlbumsAdmin({ albums }: { albums: EditorAlbum[] }) {
  const router = useRouter();
  const [isCreating, setIsCreating] = useState(false);
  // "in Travel › Italy": two sub-albums of the same name are told apart by where they are.
  const paths = new Map(parentChoices(albums, null).map((choice) => [choice.id, choice.path]));

  async function handleCreate(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const slug = String(form.get("slug") ?? "").trim();
    const parentId = String(form.get("parentId") ?? "");
    const fields = {
      title: String(form.get("title") ?? "").trim(),
      ...(slug ? { slug } : {}),
      description: String(form.get("description") ?? "").trim(),
      visibility: String(form.get("visibility") ?? "private") as Visibility,
      parentId: parentId || null,
      sort: String(form.get("sort") ?? "manual") as AlbumSort,
    };
    setIsCreating(true);
    try {
      const album = await createAlbumRequest(fields);
      toast.success(`Created the album ${album.title}`);
      router.push(`/admin/albums/${album.id}`);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : "The album could not be created.");
      setIsCreating(false);
    }
  }

  return (
    <>
      <AdminPanel title="New album">
        <form className="admin-form album-form" onSubmit={handleCreate} aria-label="Create an album">
          <label className="field">
            Title
            <input name="title" required maxLength={200} autoComplete="off" />
          </label>
          <label className="field">
            <span>
              Address <span className="field-hint">(optional)</span>
            </span>
            <input name="slug" maxLength={80} pattern="[a-z0-9]+(-[a-z0-9]+)*" autoComplete="off" aria-describedby="new-album-slug-hint" placeholder="made from the title" />
            <span id="new-album-slug-hint" className="field-hint">
              /albums/… in lower-case letters, digits and hyphens.
            </span>
          </label>
          <label className="field">
            Visibility
            <select name="visibility" defaultValue="private" aria-describedby="new-album-visibility-hint">
              {VISIBILITY_CHOICES.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.label}
                </option>
              ))}
            </select>
            <span id="new-album-visibility-hint" className="field-hint">
              {VISIBILITY_HINT}
            </span>
          </label>
          <label className="field">
            Inside
            <select name="parentId" defaultValue="">
              <option value="">Nothing (a top-level album)</option>
              {parentChoices(albums, null).map((choice) => (
                <option key={choice.id} value={choice.id} title={choice.path}>
                  {choice.label}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            Order
            <select name="sort" defaultValue="manual">
              {SORT_CHOICES.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.label}
                </option>
              ))}
            </select>
          </label>
          <label className="field album-form-wide">
            Description
            <textarea name="description" maxLength={5000} rows={2} />
          </label>
          <div className="admin-form-submit">
            <button type="submit" disabled={isCreating} aria-busy={isCreating}>
              Create album
            </button>
          </div>
        </form>
      </AdminPanel>

      <h2>{albums.length === 0 ? "No albums yet" : "Your albums"}</h2>
      {albums.length === 0 ? (
        <p className="empty-state muted">Albums you create are listed here. Add photos to them from the album&rsquo;s page, or right after an upload.</p>
      ) : (
        <ul className="admin-album-list" aria-label="Albums">
          {albums.map((album) => {
            const badge = VISIBILITY_BADGES[album.visibility];
            const parentPath = album.parentId ? paths.get(album.parentId) : null;
            return (
              <li key={album.id} className="admin-album-row" data-testid={`admin-album-${album.slug}`}>
                <AlbumCoverImage cover={album.cover} sizes="6rem" />
                <div className="admin-album-text">
                  <Link href={`/admin/albums/${album.id}`} className="admin-album-title">
                    {album.title}
                  </Link>
                  <span className="muted admin-album-meta">
                    {describeAlbumPhotos(album)}
                    {parentPath ? ` · in ${parentPath}` : ""}
                  </span>
                </div>
                <span className={badge.className}>{badge.label}</span>
                <a className="button secondary button-small admin-album-view" href={`/albums/${album.slug}`}>
                  View<span className="visually-hidden"> {album.title}</span>
                </a>
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}
