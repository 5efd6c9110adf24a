"use client";

import Uppy, { type UppyFile } from "@uppy/core";
import Dashboard from "@uppy/react/dashboard";
import Tus, { type TusBody } from "@uppy/tus";
import Link from "next/link";
import { useEffect, useState } from "react";
import toast from "react-hot-toast";
import "@uppy/core/css/style.min.css";
import "@uppy/dashboard/css/style.min.css";
import { AddToAlbum, type AlbumChoice } from "@/src/albums/components/add-to-album";
import type { z } from "zod";
import { photoResponseSchema } from "@/src/photos/photos-api.schemas";
import type { RecentUpload } from "@/src/photos/recent-uploads.service";
import { ACCEPTED_FILE_TYPES } from "@/src/uploads/accepted-file-types";
import { callApi } from "@/src/ui/api-client";
import { useChosenTheme } from "./use-chosen-theme";
import { useResumeWhenBack } from "./use-resume-when-back";
import { useSharedPhotos } from "./use-shared-photos";
import { type FinishedUpload, isFinalRefusal, readFinishedUpload, readRefusalMessage, refusalWithoutFileName } from "./upload-answers";

type UploaderFile = UppyFile<Record<string, unknown>, TusBody>;
export type UploaderUppy = Uppy<Record<string, unknown>, TusBody>;

// Large enough to be quick, small enough that a dropped connection costs little to resend.
const CHUNK_BYTES = 8 * 1024 * 1024;
const RETRY_DELAYS_MS = [0, 1000, 3000, 5000, 10000, 20000];
const STATUS_POLL_MS = 1500;

interface UploadedPhoto {
  id: string;
  fileName: string;
  status: FinishedUpload["status"];
  isDuplicate: boolean;
  thumbnailUrl: string | null;
  needsAltText: boolean;
}

/** One size of a photo, as GET /api/photos/{id} lists it. */
type PhotoVariant = z.output<typeof photoResponseSchema>["photo"]["variants"][number];

/** The smallest JPEG or WebP variant of a photo as /api/photos/{id} lists them (by width). */
function smallestThumbnail(variants: PhotoVariant[]): string | null {
  const usable = variants.filter((variant) => variant.format === "jpeg" || variant.format === "webp");
  usable.sort((a, b) => a.width - b.width);
  return usable[0]?.url ?? null;
}

function fromRecentUpload(upload: RecentUpload): UploadedPhoto {
  return { id: upload.id, fileName: upload.name, status: upload.status, isDuplicate: false, thumbnailUrl: upload.thumbnailUrl, needsAltText: upload.needsAltText };
}

interface RefusedFile {
  key: string;
  fileName: string;
  reason: string;
}

function createUppy(maxFileBytes: number): UploaderUppy {
  return new Uppy<Record<string, unknown>, TusBody>({
    autoProceed: false,
    restrictions: { allowedFileTypes: ACCEPTED_FILE_TYPES, maxFileSize: maxFileBytes },
  }).use(Tus, {
    endpoint: "/api/upload/tus",
    chunkSize: CHUNK_BYTES,
    retryDelays: RETRY_DELAYS_MS,
    limit: 3,
    removeFingerprintOnSuccess: true,
    // Only the name and type go to the server; the name is shown after sanitising, never trusted.
    allowedMetaFields: ["name", "type"],
  });
}

function responseTextOf(response: { body?: TusBody } | undefined): string | undefined {
  return response?.body?.xhr?.responseText;
}

interface PhotoUploaderProps {
  maxFileBytes: number;
  /** The user's latest uploads from the server, so the list is still there after a reload. */
  recentUploads: RecentUpload[];
  /** The albums the uploader may add photos to: offered for this visit's uploads once they finish. */
  albums?: AlbumChoice[];
}

/** Uppy's Dashboard on the tus endpoint, with a toast per file and the photos' processing status. */
export function PhotoUploader({ maxFileBytes, recentUploads, albums }: PhotoUploaderProps) {
  // One Uppy per page view. Its constructor only sets up state, so it is safe in the server render;
  // the Dashboard attaches to the page once mounted.
  const [uppy] = useState(() => createUppy(maxFileBytes));
  const [uploaded, setUploaded] = useState<UploadedPhoto[]>(() => recentUploads.map(fromRecentUpload));
  const [refused, setRefused] = useState<RefusedFile[]>([]);
  // The photos uploaded in this visit (newest first), and whether an upload is running now.
  const [sessionIds, setSessionIds] = useState<string[]>([]);
  const [isUploading, setIsUploading] = useState(false);
  const theme = useChosenTheme();
  const sharedNotice = useSharedPhotos(uppy);
  useResumeWhenBack(uppy);

  useEffect(() => {
    const onSuccess = (file: UploaderFile | undefined, response: { body?: TusBody }) => {
      if (!file) return;
      const photo = readFinishedUpload(responseTextOf(response));
      if (!photo) {
        toast.error(`${file.name}: the server did not say what became of it.`);
        return;
      }
      showUploadedToast(file, photo);
      const item: UploadedPhoto = { id: photo.id, fileName: file.name ?? photo.name, status: photo.status, isDuplicate: photo.isDuplicate, thumbnailUrl: null, needsAltText: true };
      setUploaded((list) => [item, ...list.filter((other) => other.id !== photo.id)]);
      setSessionIds((ids) => [photo.id, ...ids.filter((id) => id !== photo.id)]);
    };
    const onUploadStart = () => setIsUploading(true);
    const onComplete = () => setIsUploading(false);
    const onError = (file: UploaderFile | undefined, error: Error, response?: { status?: number; body?: TusBody }) => {
      if (!file) return;
      // The server's refusal (not a photo, too large, …) or, when it never answered, what went wrong.
      const refusal = readRefusalMessage(responseTextOf(response));
      const fileName = file.name ?? "This file";
      if (refusal && isFinalRefusal(response?.status)) {
        // Said once, where it stays: sending it again would be refused again, so it leaves the
        // Dashboard (no Retry button) and is listed below with the reason (announced politely).
        setRefused((list) => [...list.filter((item) => item.key !== file.id), { key: file.id, fileName, reason: refusal }]);
        setTimeout(() => {
          uppy.removeFile(file.id);
          // Uppy keeps "Upload failed" in its status bar until every failed file is gone.
          if (!uppy.getFiles().some((other) => other.error)) uppy.setState({ error: null });
        }, 0);
        return;
      }
      toast.error(
        refusal ? `${fileName} did not finish: ${refusal} Retry to continue where it stopped.` : `${fileName} did not finish (${error.message}). Retry to continue where it stopped.`,
        { id: `upload-error-${file.id}` },
      );
    };
    const onRestriction = (file: UploaderFile | undefined, error: Error) => {
      toast.error(file ? `${file.name}: ${error.message}` : error.message);
    };
    uppy.on("upload-success", onSuccess);
    uppy.on("upload-error", onError);
    uppy.on("restriction-failed", onRestriction);
    uppy.on("upload", onUploadStart);
    uppy.on("complete", onComplete);
    return () => {
      uppy.off("upload", onUploadStart);
      uppy.off("complete", onComplete);
      uppy.off("upload-success", onSuccess);
      uppy.off("upload-error", onError);
      uppy.off("restriction-failed", onRestriction);
      // Leaving the page pauses; the server keeps the partial uploads (24 h) and adding the same
      // file again resumes it.
      uppy.pauseAll();
    };
  }, [uppy]);

  // Asked again until each photo is done and has a thumbnail (the visible one comes first, so a
  // thumbnail often shows while the larger sizes are still being made).
  const pendingIds = uploaded
    .filter((photo) => photo.status === "processing" || (photo.status === "ready" && photo.thumbnailUrl === null))
    .map((photo) => photo.id)
    .join(",");
  useEffect(() => {
    if (!pendingIds) return;
    const timer = setInterval(async () => {
      for (const id of pendingIds.split(",")) {
        const body = await callApi(`/api/photos/${id}`, { method: "GET" }, photoResponseSchema).catch(() => null);
        if (!body) continue;
        const thumbnailUrl = smallestThumbnail(body.photo.variants);
        setUploaded((list) => list.map((item) => (item.id === id ? { ...item, status: body.photo.status, thumbnailUrl: item.thumbnailUrl ?? thumbnailUrl, needsAltText: body.photo.altText.trim() === "" } : item)));
      }
    }, STATUS_POLL_MS);
    return () => clearInterval(timer);
  }, [pendingIds]);

  return (
    <div className="uploader">
      {sharedNotice && (
        <p role="status" className="notice uploader-notice">
          {sharedNotice}
        </p>
      )}
      <Dashboard
        uppy={uppy}
        width="100%"
        height={420}
        fileManagerSelectionType="both"
        proudlyDisplayPoweredByUppy={false}
        theme={theme}
        note={`JPEG, PNG, WebP, AVIF, HEIC/HEIF, TIFF or GIF, up to ${formatBytes(maxFileBytes)} each. Videos too: MP4, MOV, WebM, MKV, AVI, 3GP or MTS.`}
      />
      {albums && sessionIds.length > 0 && !isUploading && <AddToAlbum albums={albums} photoIds={sessionIds} />}
      {uploaded.length > 0 && (
        <section aria-label="Uploaded photos">
          <h2 className="uploader-heading">Recent uploads</h2>
          <ul className="uploaded-list">
            {uploaded.map((photo) => (
              <li key={photo.id} className="uploaded-item" data-photo-id={photo.id} data-status={photo.status}>
                <span className="uploaded-thumb">
                  {/* Decorative: the name beside it says which photo this is. A plain <img>: the
                      variant is already a small, sized file, and next/image would resize it again. */}
                  {/* eslint-disable-next-line @next/next/no-img-element */}
                  {photo.thumbnailUrl && <img src={photo.thumbnailUrl} alt="" width={48} height={48} loading="lazy" decoding="async" />}
                </span>
                <span className="uploaded-name">
                  <Link href={`/p/${photo.id}`}>{photo.fileName}</Link>
                  {photo.isDuplicate && <span className="muted uploaded-note">Already in your library</span>}
                  {/* A nudge, not a rule: alt text is how people who cannot see the photo get it. */}
                  {photo.needsAltText && (
                    <Link className="uploaded-note" href={`/p/${photo.id}#details`} aria-label={`Add alt text to ${photo.fileName}`}>
                      Add alt text
                    </Link>
                  )}
                </span>
                <span className={`status-badge status-${photo.status}`}>{photo.status}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      <div aria-live="polite">
        {refused.length > 0 && (
          <section aria-label="Refused files">
            <h2 className="uploader-heading">Refused</h2>
            <ul className="uploaded-list">
              {refused.map((file) => (
                <li key={file.key} className="refused-item">
                  <span className="refused-name">{file.fileName}</span>: <span className="muted">{refusalWithoutFileName(file.reason)}</span>
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
    </div>
  );
}

function showUploadedToast(file: UploaderFile, photo: FinishedUpload): void {
  if (!photo.isDuplicate) {
    toast.success(`Uploaded ${file.name}`, { id: `uploaded-${photo.id}` });
    return;
  }
  toast(
    <span>
      {file.name} is a duplicate: you already have it. <Link href={`/p/${photo.id}`}>Open the photo</Link>
    </span>,
    { id: `duplicate-${photo.id}`, icon: "↺" },
  );
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 * 1024) return `${Math.round(bytes / (1024 * 1024 * 1024))} GB`;
  return `${Math.round(bytes / (1024 * 1024))} MB`;
}
