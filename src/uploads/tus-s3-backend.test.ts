import { describe, expect, it } from "vitest";
import { AppError } from "@/src/errors/app-error";
import { createTusS3Backend } from "./tus-s3-backend";

const backend = createTusS3Backend({
  endpoint: "http://127.0.0.1:9",
  region: "us-east-1",
  bucket: "uploads",
  accessKeyId: "key",
  secretAccessKey: "secret",
  localDirectory: "/nonexistent",
  expirationMs: 60_000,
});

/** An error as the AWS SDK raises it for an S3 error answer: its name is S3's error code. */
function s3Error(name: string, httpStatusCode: number): Error {
  return Object.assign(new Error(name), { name, $metadata: { httpStatusCode } });
}

describe("the tus S3 backend's errors", () => {
  it("answers an upload whose multipart upload is gone as not found, so the client starts the file again", () => {
    const answer = backend.toStoreError(s3Error("NoSuchUpload", 404));
    expect(answer).toBeInstanceOf(AppError);
    expect((answer as AppError).code).toBe("NOT_FOUND");
  });

  it("answers a store that is down as unavailable, and leaves other errors as they are", () => {
    expect((backend.toStoreError(s3Error("InternalError", 503)) as AppError).code).toBe("SERVICE_UNAVAILABLE");
    const other = s3Error("InvalidPart", 400);
    expect(backend.toStoreError(other)).toBe(other);
  });
});
