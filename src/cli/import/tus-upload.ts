// One file sent through the site's tus endpoint, as the upload page sends it (the same chunk size,
// the same metadata: file name and type), with tus-js-client's Node build. The upload's URL is kept
// in the import state under a fingerprint of the file's hash and size, so a run that stopped
// half-way resumes the file from the server's offset instead of sending it again.
import fs from "node:fs";
import { buffer } from "node:stream/consumers";
import { type DetailedError, type PreviousUpload, Upload, type UrlStorage } from "tus-js-client";
import { declaredTypeForName } from "./importable-files";
import type { ImportSource } from "./import-source";
import type { ImportState } from "./import-state";
import { type SiteApi, SiteApiError } from "./site-api";

const CHUNK_BYTES = 8 * 1024 * 1024;
/** Waits between tries when the server is away or busy: about a minute in all, then the file fails (and resumes next run). */
export const RETRY_DELAYS_MS = [1000, 3000, 5000, 10000, 20000, 30000];

export interface UploadedPhoto {
  id: string;
  isDuplicate: boolean;
}

/** tus's URL storage on the import state, one entry per fingerprint (a file's hash and size). */
function stateUrlStorage(state: ImportState): UrlStorage {
  const previous = (fingerprint: string): PreviousUpload[] => {
    const upload = state.unfinishedUpload(fingerprint);
    return upload ? [{ size: upload.size, metadata: {}, creationTime: upload.createdAt, urlStorageKey: fingerprint, uploadUrl: upload.url, parallelUploadUrls: null }] : [];
  };
  return {
    findAllUploads: () => Promise.resolve([]),
    findUploadsByFingerprint: (fingerprint) => Promise.resolve(previous(fingerprint)),
    removeUpload: (key) => Promise.resolve(state.forgetUpload(key)),
    addUpload: (fingerprint, upload) => {
      if (upload.uploadUrl) {
        state.rememberUpload(fingerprint, { url: upload.uploadUrl, size: upload.size ?? 0, createdAt: upload.creationTime });
        // Saved at once: this is what lets a run killed in the middle of this file resume it.
        state.save();
      }
      return Promise.resolve(fingerprint);
    },
  };
}

function uploadError(error: Error | DetailedError): SiteApiError {
  const response = "originalResponse" in error ? error.originalResponse : null;
  if (response) return SiteApiError.from(response.getStatus(), response.getBody() ?? "", response.getHeader("WWW-Authenticate") ?? null);
  const cause = "causingError" in error && error.causingError ? error.causingError.message : error.message;
  return new SiteApiError(`the upload did not get through (${cause}); the next run resumes it`, 0);
}

/** The photo the finishing request names (`{"photo": {...}}`, as the upload page reads it). */
function photoFromAnswer(body: string | undefined): UploadedPhoto {
  try {
    const { photo } = JSON.parse(body ?? "") as { photo?: { id?: unknown; isDuplicate?: unknown } };
    if (typeof photo?.id === "string") return { id: photo.id, isDuplicate: photo.isDuplicate === true };
  } catch {
    // Handled below: an answer without a photo is a failure to report, never a guess.
  }
  throw new SiteApiError("the server finished the upload but did not name the photo", 0);
}

export async function uploadSource(
  api: SiteApi,
  state: ImportState,
  source: ImportSource,
  sha256: string,
  onBytes: (sentSoFar: number) => void,
): Promise<UploadedPhoto> {
  // A file is read again by path, so tus can seek to the server's offset; a zip entry is read whole
  // (it is at most the server's largest file).
  const input = source.filePath ? fs.createReadStream(source.filePath) : await buffer(await source.open());
  return new Promise((resolve, reject) => {
    const upload = new Upload(input, {
      endpoint: api.url("/api/upload/tus"),
      headers: api.authorization,
      metadata: { filename: source.name, filetype: declaredTypeForName(source.name) },
      uploadSize: source.size,
      chunkSize: CHUNK_BYTES,
      retryDelays: RETRY_DELAYS_MS,
      fingerprint: () => Promise.resolve(`${sha256}:${source.size}`),
      urlStorage: stateUrlStorage(state),
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      onProgress: (sent) => onBytes(sent),
      onSuccess: ({ lastResponse }) => {
        try {
          resolve(photoFromAnswer(lastResponse.getBody()));
        } catch (error) {
          reject(error as Error);
        }
      },
      onError: (error) => reject(uploadError(error)),
    });
    upload
      .findPreviousUploads()
      .then((previous) => {
        if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
        upload.start();
      })
      .catch((error: unknown) => reject(error instanceof Error ? error : new Error(String(error))));
  });
}
