import fs from "node:fs/promises";
import path from "node:path";
import { FileStore } from "@tus/file-store";
import { AppError } from "@/src/errors/app-error";
import { toLocalStorageError } from "@/src/storage/local-disk-storage";
import { causedBy, errorCode } from "@/src/storage/storage-errors";
import type { TusBackend } from "./tus-backend";
import { removeAbandonedTusUploads } from "./tus-upload-expiry";

/**
 * Uploads on local disk under `directory` (`<id>` with the bytes, `<id>.json` with the metadata).
 * No expiration is given to the FileStore itself: it would expire by creation date, cutting off a
 * slow upload that is still moving; `removeAbandonedUploads` judges by the last write instead.
 */
export function createTusFileBackend(directory: string): TusBackend {
  const datastore = new FileStore({ directory });
  return {
    datastore,
    keyPrefix: "",
    async openFinishedUpload(upload) {
      return { filePath: path.join(directory, upload.id), release: async () => {} };
    },
    async findUploadMetadata(id) {
      let text: string;
      try {
        text = await fs.readFile(path.join(directory, `${id}.json`), "utf8");
      } catch (error) {
        if (errorCode(error) === "ENOENT") return null;
        throw causedBy(new AppError("SERVICE_UNAVAILABLE", `Upload storage is unavailable: cannot read ${directory} (${errorCode(error) ?? "unknown error"})`), error);
      }
      return readMetadata(text);
    },
    toStoreError: (error) => toLocalStorageError(error, "keep the upload"),
    async removeUpload(id) {
      await Promise.all([fs.rm(path.join(directory, id), { force: true }), fs.rm(path.join(directory, `${id}.json`), { force: true })]);
    },
    async removeAbandonedUploads(maxAgeMs) {
      return (await removeAbandonedTusUploads(directory, maxAgeMs)).length;
    },
  };
}

/**
 * The metadata in FileStore's `<id>.json`; null when the file is not what FileStore writes (cut
 * short by a crash), which tus would not take as an upload either.
 */
function readMetadata(text: string): Record<string, string | null> | null {
  try {
    const metadata = (JSON.parse(text) as { metadata?: unknown }).metadata;
    return typeof metadata === "object" && metadata !== null ? (metadata as Record<string, string | null>) : {};
  } catch {
    return null;
  }
}
