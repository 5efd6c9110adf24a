import net from "node:net";
import { describe, expect, it } from "vitest";
import { AppError } from "@/src/errors/app-error";
import { createTusS3Backend } from "./tus-s3-backend";

const OPTIONS = {
  endpoint: "http://127.0.0.1:9",
  region: "us-east-1",
  bucket: "uploads",
  accessKeyId: "key",
  secretAccessKey: "secret",
  localDirectory: "/nonexistent",
  expirationMs: 60_000,
};
const backend = createTusS3Backend(OPTIONS);

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

describe("the tus S3 backend's time limits", () => {
  it("fails a request to a store that takes the connection and never answers (503), rather than waiting for ever with the upload's lock", async () => {
    // A store whose network died after the connection was made: it reads the request and says nothing.
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => {
      sockets.add(socket);
      socket.on("data", () => {});
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      const stalled = createTusS3Backend({ ...OPTIONS, endpoint: `http://127.0.0.1:${port}`, idleTimeoutMs: 200 });
      const startedAt = Date.now();
      const failure = await stalled.findUploadMetadata("tus-uploads/0123456789abcdef0123456789abcdef").then(
        () => null,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(AppError);
      expect((failure as AppError).code).toBe("SERVICE_UNAVAILABLE");
      // The SDK's own retries included: a few idle periods, not a hang.
      expect(Date.now() - startedAt).toBeLessThan(4000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
