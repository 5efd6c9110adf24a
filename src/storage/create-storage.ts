import "server-only";
import { LocalDiskStorage } from "./local-disk-storage";
import { S3Storage } from "./s3-storage";
import type { Storage, StorageConfig } from "./storage";

/**
 * The storage backend the configuration names. Call `prepare()` on the result once at startup
 * (it creates the directory or bucket); nothing here touches the disk or the network.
 */
export function createStorage(config: StorageConfig): Storage {
  switch (config.kind) {
    case "local":
      return new LocalDiskStorage(config.directory);
    case "s3":
      return new S3Storage(config);
  }
}
