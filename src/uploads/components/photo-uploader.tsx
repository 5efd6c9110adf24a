"use client";

import Uppy, { type UppyFile } from "@uppy/core";
import Dashboard from "@uppy/react/dashboard";
import Tus, { type TusBody } from "@uppy/tus";
import Link from "next/link";
import { useEffect, useState } from "react";
import toast from "react-hot-toast";
import "@uppy/core/css/style.min.css";
import "@uppy/dashboard/css/style.min.css";
import { callApi } from "@/src/ui/api-client";
import { type FinishedUpload, isFinalRefusal, readFinishedUpload, readRefusalMessage } from "./upload-answers";

type UploaderFile = UppyFile<Record<string, unknown>, TusBody>;

// Chosen by content on the server; these only keep obviously wrong files out of the list. HEIC and
// HEIF often arrive without a MIME type, so the extensions are listed too.
const ACCEPTED_FILE_TYPES = [
  "image/jpeg", "image/png", "image/webp", "image/avif", "image/heic", "image/heif", "image/tiff", "image/gif",
  ".jpg", ".jpeg", ".png", ".webp", ".avif", ".heic", ".heif", ".tif", ".tiff", ".gif",
];
// Large enough to be quick, small enough that a dropped connection costs little to resend.
const CHUNK_BYTES = 8 * 1024 * 1024;
const RETRY_DELAYS_MS = [0, 1000, 3000, 5000, 10000, 20000];
const STATUS_POLL_MS = 1500;

interface UploadedPhoto extends FinishedUpload {
  fileName: string;
}

interface RefusedFile {
  key: string;
  fileName: string;
  reason: string;
}

function createUppy(maxFileBytes: number): Uppy<Record<string, unknown>, TusBody> {
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

/** Uppy's Dashboard on the tus endpoint, with a toast per file and the photos' processing status. */
export function PhotoUploader({ maxFileBytes }: { maxFileBytes: number }) {
  // One Uppy per page view. Its constructor only sets up state, so it is safe in the server render;
  // the Dashboard attaches to the page once mounted.
  const [uppy] = useState(() => createUppy(maxFileBytes));
  const [uploaded, setUploaded] = useState<UploadedPhoto[]>([]);
  const [refused, setRefused] = useState<RefusedFile[]>([]);

  useEffect(() => {
    const onSuccess = (file: UploaderFile | undefined, response: { body?: TusBody }) => {
      if (!file) return;
      const photo = readFinishedUpload(responseTextOf(response));
      if (!photo) {
        toast.error(`${file.name}: the server did not say what became of it.`);
        return;
      }
      showUploadedToast(file, photo);
      setUploaded((list) => [{ ...photo, fileName: file.name ?? photo.name }, ...list.filter((item) => item.id !== photo.id)]);
    };
    const onError = (file: UploaderFile | undefined, error: Error, response?: { status?: number; body?: TusBody }) => {
      if (!file) return;
      // The server's refusal (not a photo, too large, …) or, when it never answered, what went wrong.
      const refusal = readRefusalMessage(responseTextOf(response));
      const fileName = file.name ?? "This file";
      if (refusal && isFinalRefusal(response?.status)) {
        toast.error(`${fileName} was refused: ${refusal}`, { id: `upload-error-${file.id}` });
        // Sending it again would be refused again: it leaves the Dashboard (no Retry button) and
        // stays listed below with the reason.
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
    return () => {
      uppy.off("upload-success", onSuccess);
      uppy.off("upload-error", onError);
      uppy.off("restriction-failed", onRestriction);
      // Leaving the page pauses; the server keeps the partial uploads (24 h) and adding the same
      // file again resumes it.
      uppy.pauseAll();
    };
  }, [uppy]);

  const processingIds = uploaded.filter((photo) => photo.status === "processing").map((photo) => photo.id).join(",");
  useEffect(() => {
    if (!processingIds) return;
    const timer = setInterval(async () => {
      for (const id of processingIds.split(",")) {
        const body = await callApi<{ photo: { status: FinishedUpload["status"] } }>(`/api/photos/${id}`, { method: "GET" }).catch(() => null);
        if (!body || body.photo.status === "processing") continue;
        setUploaded((list) => list.map((item) => (item.id === id ? { ...item, status: body.photo.status } : item)));
      }
    }, STATUS_POLL_MS);
    return () => clearInterval(timer);
  }, [processingIds]);

  return (
    <div className="uploader">
      <Dashboard
        uppy={uppy}
        width="100%"
        height={420}
        fileManagerSelectionType="both"
        proudlyDisplayPoweredByUppy={false}
        note={`JPEG, PNG, WebP, AVIF, HEIC/HEIF, TIFF or GIF, up to ${formatBytes(maxFileBytes)} each.`}
      />
      {uploaded.length > 0 && (
        <section aria-label="Uploaded photos">
          <h2 className="uploader-heading">Uploaded</h2>
          <ul className="uploaded-list">
            {uploaded.map((photo) => (
              <li key={photo.id} data-photo-id={photo.id} data-status={photo.status}>
                <Link href={`/p/${photo.id}`}>{photo.fileName}</Link>
                {photo.isDuplicate && <span className="muted"> (already in your library)</span>}
                <span className={`status-badge status-${photo.status}`}>{photo.status}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {refused.length > 0 && (
        <section aria-label="Refused files">
          <h2 className="uploader-heading">Refused</h2>
          <ul className="uploaded-list">
            {refused.map((file) => (
              <li key={file.key}>
                {file.fileName}: <span className="muted">{file.reason}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
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
