import { getEnv } from "@/src/config/env";
import { createStorage } from "./create-storage";
import type { Storage } from "./storage";
import { processSingleton } from "@/src/config/process-singleton";

/** The process-wide storage: local disk under DATA_DIR/media, or S3 when STORAGE=s3. */
export function getStorage(): Storage {
  return processSingleton("storage", () => {
    const env = getEnv();
    return env.STORAGE === "s3"
        ? createStorage({
            kind: "s3",
            endpoint: env.S3_ENDPOINT ?? "",
            region: env.S3_REGION,
            bucket: env.S3_BUCKET,
            accessKeyId: env.S3_ACCESS_KEY_ID ?? "",
            secretAccessKey: env.S3_SECRET_ACCESS_KEY ?? "",
          })
        : createStorage({ kind: "local", directory: `${env.dataDirectory}/media` });
  });
}
