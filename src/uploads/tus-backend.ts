import type { DataStore, Locker, Upload } from "@tus/utils";

/** Where tus keeps uploads while they arrive: the data store plus what the app needs around it. */
export interface TusBackend {
  datastore: DataStore;
  /** Put before the id in the path to get the store's key (uploads share the media bucket on S3). */
  keyPrefix: string;
  /** tus's lock on an upload, when one process's memory is not enough (tus's MemoryLocker otherwise). */
  locker?: Locker;
  /**
   * Gives the finished upload's bytes as a file on local disk (to hash, sniff and store), and a
   * `release` that removes any copy made for it.
   */
  openFinishedUpload(upload: Upload): Promise<{ filePath: string; release(): Promise<void> }>;
  /**
   * The upload's metadata (Upload-Metadata plus what the server added, such as the owner), or null
   * when the store has no such upload. Throws `AppError("SERVICE_UNAVAILABLE")` when the store
   * cannot tell (unreachable, unreadable): tus's own lookup answers both with 404.
   */
  findUploadMetadata(id: string): Promise<Record<string, string | null> | null>;
  /**
   * The AppError for a failure of the store itself (503 unreachable, 507 full), or `error`
   * unchanged: what tus's requests throw reaches the client through this.
   */
  toStoreError(error: unknown): unknown;
  /** Removes an upload's bytes and metadata; quiet when they are already gone. */
  removeUpload(id: string): Promise<void>;
  /** Removes uploads abandoned for longer than `maxAgeMs`; answers how many. */
  removeAbandonedUploads(maxAgeMs: number): Promise<number>;
}
