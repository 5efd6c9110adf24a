"use client";

import { useEffect, useState } from "react";
import type { UploaderUppy } from "./photo-uploader";

// Kept in step with public/upload-share-worker.js, which fills this cache from the share sheet's post.
const SHARE_WORKER_URL = "/upload-share-worker.js";
const SHARE_PATH = "/api/upload/share";
const SHARED_PHOTOS_CACHE = "contact-sheet-shared-photos";
/** What /api/upload/share answers when the post reached the server, not the worker. */
export const SHARE_MISSED = "missed";

/**
 * "Share → Contact Sheet" from a phone's gallery: registers the worker that receives the share
 * sheet's files, and when the page was opened by a share (`?shared=<batch>`), adds that batch's
 * files to the uploader and starts it, so they take the same resumable path as any other upload.
 * Returns what to tell the photographer about it, or null.
 */
export function useSharedPhotos(uppy: UploaderUppy): string | null {
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    // Registering is cheap and idempotent; browsers without workers (or on plain http off
    // localhost) simply get no share target.
    navigator.serviceWorker?.register(SHARE_WORKER_URL, { scope: SHARE_PATH }).catch(() => undefined);

    const batch = new URLSearchParams(window.location.search).get("shared");
    if (!batch) return;
    // Opened once: a reload must not add the same files again.
    const url = new URL(window.location.href);
    url.searchParams.delete("shared");
    window.history.replaceState(window.history.state, "", url);

    // Not cancelled on unmount: the files have left Cache Storage by then, and Uppy outlives a
    // development-mode remount.
    receiveShare(batch)
      .then(({ files, notice }) => {
        setNotice(notice);
        for (const file of files) addSharedFile(uppy, file);
        if (uppy.getFiles().length > 0) void uppy.upload();
      })
      .catch(() => setNotice("The shared photos could not be read. Share them again, or choose them here."));
  }, [uppy]);

  return notice;
}

/** Adds one shared file; one Uppy refuses (too large, not a photo) is reported by its own toast. */
function addSharedFile(uppy: UploaderUppy, file: File): void {
  try {
    uppy.addFile({ name: file.name, type: file.type, data: file, source: "share" });
  } catch {
    // Uppy has already emitted "restriction-failed", which the uploader shows.
  }
}

/** The shared files, and what to say about them. */
async function receiveShare(batch: string): Promise<{ files: File[]; notice: string }> {
  if (batch === SHARE_MISSED) {
    return {
      files: [],
      notice: "Your device shared photos before this site's upload helper was set up in this browser. It is set up now: share them again, or choose them here.",
    };
  }
  const files = await takeSharedFiles(batch);
  if (files.length === 0) return { files, notice: "Nothing arrived from the share. Share the photos again, or choose them here." };
  const count = files.length === 1 ? "1 photo" : `${files.length} photos`;
  return { files, notice: `Shared from your device: ${count}, added to the upload below.` };
}

/** The batch's files from Cache Storage, removed from it as they are taken. */
async function takeSharedFiles(batch: string): Promise<File[]> {
  if (!("caches" in window)) return [];
  const cache = await caches.open(SHARED_PHOTOS_CACHE);
  const prefix = `${SHARE_PATH}/pending/${batch}/`;
  const requests = (await cache.keys()).filter((request) => new URL(request.url).pathname.startsWith(prefix));
  const files: File[] = [];
  for (const request of requests) {
    const response = await cache.match(request);
    if (response) {
      const name = decodeURIComponent(response.headers.get("X-File-Name") ?? "shared-photo");
      files.push(new File([await response.blob()], name, { type: response.headers.get("Content-Type") ?? "" }));
    }
    await cache.delete(request);
  }
  return files;
}
