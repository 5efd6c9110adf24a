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
  /** Removes an upload's bytes and metadata; quiet when they are already gone. */
  removeUpload(id: string): Promise<void>;
  /** Removes uploads abandoned for longer than `maxAgeMs`; answers how many. */
  removeAbandonedUploads(maxAgeMs: number): Promise<number>;
}
