import fs from "node:fs/promises";
import path from "node:path";
import { FileStore } from "@tus/file-store";
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
    async removeUpload(id) {
      await Promise.all([fs.rm(path.join(directory, id), { force: true }), fs.rm(path.join(directory, `${id}.json`), { force: true })]);
    },
    async removeAbandonedUploads(maxAgeMs) {
      return (await removeAbandonedTusUploads(directory, maxAgeMs)).length;
    },
  };
}
