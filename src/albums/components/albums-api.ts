import { callApi } from "@/src/ui/api-client";
import { albumPhotosAddedSchema, albumPhotosRemovedSchema, albumResponseSchema } from "../albums-api.schemas";
import type { AlbumSort, AlbumSummary } from "../albums.types";
import type { Visibility } from "@/src/db/database";

// The albums API as the admin pages call it from the browser (src/ui/api-client.ts): one function
// per call, so the pages name what they do and the paths live in one place.

export interface AlbumFields {
  title: string;
  slug: string;
  description: string;
  visibility: Visibility;
  parentId: string | null;
  sort: AlbumSort;
}

export type AlbumMove = { after: string | null } | { before: string | null } | { position: number };

const albumPath = (albumId: string) => `/api/albums/${encodeURIComponent(albumId)}`;

export async function createAlbumRequest(fields: Partial<AlbumFields> & { title: string }): Promise<AlbumSummary> {
  return (await callApi("/api/albums", { method: "POST", body: fields }, albumResponseSchema)).album;
}

export async function updateAlbumRequest(albumId: string, changes: Partial<AlbumFields & { coverPhotoId: string | null }>): Promise<AlbumSummary> {
  return (await callApi(albumPath(albumId), { method: "PATCH", body: changes }, albumResponseSchema)).album;
}

export async function deleteAlbumRequest(albumId: string): Promise<void> {
  await callApi(albumPath(albumId), { method: "DELETE" });
}

export async function addPhotosRequest(albumId: string, photoIds: string[]): Promise<{ added: number }> {
  return callApi(`${albumPath(albumId)}/photos`, { method: "POST", body: { photoIds } }, albumPhotosAddedSchema);
}

export async function removePhotosRequest(albumId: string, photoIds: string[]): Promise<{ removed: number }> {
  return callApi(`${albumPath(albumId)}/photos`, { method: "DELETE", body: { photoIds } }, albumPhotosRemovedSchema);
}

export async function movePhotoRequest(albumId: string, photoId: string, to: AlbumMove): Promise<void> {
  await callApi(`${albumPath(albumId)}/photos`, { method: "PATCH", body: { photoId, ...to } });
}
