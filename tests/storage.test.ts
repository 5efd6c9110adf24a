import { createHash, randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import {
  AbortMultipartUploadCommand,
  DeleteBucketCommand,
  DeleteObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListBucketsCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
} from "@aws-sdk/client-s3";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/src/errors/app-error";
import { createStorage } from "@/src/storage/create-storage";
import { LocalDiskStorage } from "@/src/storage/local-disk-storage";
import { S3Storage, type S3StorageConfig, type S3StorageOptions } from "@/src/storage/s3-storage";
import { InvalidStorageKeyError, type Storage } from "@/src/storage/storage";
import { findFreePort } from "./helpers/server-process";

// One contract, every backend: local disk always; S3 when S3_ENDPOINT points at a real server
// (CI starts OpenStack Swift's s3api with ../shared/services/s3.sh). The S3 failure modes that
// need no real server (down, slow, 5xx) always run, against fake endpoints on 127.0.0.1.

const MEBIBYTE = 1024 * 1024;
const RUN_ID = `${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`;

const s3Settings: Omit<S3StorageConfig, "bucket"> | null = process.env.S3_ENDPOINT
  ? {
      kind: "s3",
      endpoint: process.env.S3_ENDPOINT,
      region: process.env.S3_REGION ?? "us-east-1",
      accessKeyId: process.env.S3_ACCESS_KEY_ID ?? "",
      secretAccessKey: process.env.S3_SECRET_ACCESS_KEY ?? "",
    }
  : null;

if (s3Settings) {
  console.log(`S3 storage tests run against ${s3Settings.endpoint}, in buckets contact-sheet-test-${RUN_ID}-*.`);
} else {
  console.log(
    "S3_ENDPOINT is not set: the S3 backend's contract tests did NOT run (only local disk and the fake-endpoint " +
      "failure modes did). Start a server with `bash ../shared/services/s3.sh start` and export the lines it prints.",
  );
}

let scratchDirectory: string;

beforeAll(async () => {
  scratchDirectory = await fs.mkdtemp(path.join(os.tmpdir(), "contact-sheet-storage-test-"));
});

afterAll(async () => {
  await fs.rm(scratchDirectory, { recursive: true, force: true });
});

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

async function sha256OfFile(filePath: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(filePath)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

async function sha256OfStream(body: Readable): Promise<{ hash: string; bytes: number }> {
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of body) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { hash: hash.digest("hex"), bytes };
}

async function writeScratchFile(name: string, bytes: Uint8Array): Promise<string> {
  const filePath = path.join(scratchDirectory, `${RUN_ID}-${name}`);
  await fs.writeFile(filePath, bytes);
  return filePath;
}

async function listAll(storage: Storage, prefix: string): Promise<Array<{ key: string; size: number }>> {
  const found: Array<{ key: string; size: number }> = [];
  for await (const object of storage.list(prefix)) found.push({ key: object.key, size: object.size });
  return found.sort((a, b) => (a.key < b.key ? -1 : 1));
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => new Error("expected a failure, but it succeeded"),
    (error: unknown) => error,
  );
}

interface Backend {
  storage: Storage;
  /** Removes what the suite left, and fails if it left anything. */
  cleanUp(): Promise<void>;
}

/** The behaviour every backend must share, whatever is behind it. */
function describeStorageContract(name: string, open: () => Promise<Backend>) {
  describe(`${name}: storage contract`, () => {
    let backend: Backend;
    let storage: Storage;

    beforeAll(async () => {
      backend = await open();
      storage = backend.storage;
      await storage.prepare();
      await storage.check();
    });

    afterAll(async () => {
      await backend?.cleanUp();
    });

    it("round-trips a 5 MB file byte for byte (SHA-256)", async () => {
      const bytes = randomBytes(5 * 1000 * 1000);
      const sourcePath = await writeScratchFile("five-megabytes.bin", bytes);
      const key = `originals/${sha256(bytes)}.jpg`;

      await storage.putFile(key, sourcePath, { contentType: "image/jpeg" });

      const before = Date.now();
      expect(await storage.stat(key)).toEqual({ size: bytes.length, modifiedAt: expect.any(Date) });
      // Within clock skew and S3's whole seconds of the write just made.
      expect(Math.abs(((await storage.stat(key))?.modifiedAt.getTime() ?? 0) - before)).toBeLessThan(60_000);
      const object = await storage.read(key);
      expect(object).toMatchObject({ size: bytes.length, contentLength: bytes.length, range: null });
      expect(sha256(await readAll(object.body))).toBe(sha256(bytes));
      expect(await sha256OfFile(sourcePath)).toBe(sha256(bytes)); // the source stays for the caller
      await storage.delete(key);
      expect(await storage.stat(key)).toBeNull();
    });

    it("stores bytes, replaces them whole, and stores an empty object", async () => {
      await storage.putBytes("variants/replace.webp", Buffer.from("the first, longer version"), { contentType: "image/webp" });
      await storage.putBytes("variants/replace.webp", Buffer.from("second"), { contentType: "image/webp" });
      expect((await readAll((await storage.read("variants/replace.webp")).body)).toString()).toBe("second");
      expect(await storage.stat("variants/replace.webp")).toMatchObject({ size: 6 });

      await storage.putBytes("variants/empty", new Uint8Array(0), { contentType: "application/octet-stream" });
      expect(await storage.stat("variants/empty")).toMatchObject({ size: 0 });
      expect((await readAll((await storage.read("variants/empty")).body)).length).toBe(0);

      await storage.delete("variants/replace.webp");
      await storage.delete("variants/empty");
    });

    it("reads byte ranges: first byte, last byte, middle, whole, and an end past the last byte", async () => {
      const bytes = randomBytes(100_000);
      await storage.putBytes("ranges/object", bytes, { contentType: "application/octet-stream" });
      const cases = [
        { start: 0, end: 0 },
        { start: 99_999, end: 99_999 },
        { start: 12_345, end: 54_321 },
        { start: 0, end: 99_999 },
      ];
      for (const range of cases) {
        const object = await storage.read("ranges/object", range);
        expect(object).toMatchObject({ size: 100_000, contentLength: range.end - range.start + 1, range });
        expect((await readAll(object.body)).equals(bytes.subarray(range.start, range.end + 1))).toBe(true);
      }
      const clamped = await storage.read("ranges/object", { start: 99_990, end: 200_000 });
      expect(clamped).toMatchObject({ size: 100_000, contentLength: 10, range: { start: 99_990, end: 99_999 } });
      expect((await readAll(clamped.body)).equals(bytes.subarray(99_990))).toBe(true);

      await expect(storage.read("ranges/object", { start: 100_000, end: 100_001 })).rejects.toThrow(RangeError);
      await expect(storage.read("ranges/object", { start: 5, end: 4 })).rejects.toThrow(RangeError);
      await storage.delete("ranges/object");
    });

    it("answers null to stat and a 404 AppError to read for a missing object", async () => {
      expect(await storage.stat("missing/object")).toBeNull();
      const error = await failureOf(storage.read("missing/object"));
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: "NOT_FOUND", status: 404 });
      const rangedError = await failureOf(storage.read("missing/object", { start: 0, end: 10 }));
      expect(rangedError).toMatchObject({ code: "NOT_FOUND", status: 404 });
    });

    it("deletes idempotently", async () => {
      await storage.putBytes("delete/me", Buffer.from("x"), { contentType: "text/plain" });
      await storage.delete("delete/me");
      await storage.delete("delete/me");
      await storage.delete("delete/never-existed");
      expect(await storage.stat("delete/me")).toBeNull();
      await expect(storage.read("delete/me")).rejects.toMatchObject({ code: "NOT_FOUND" });
    });

    it("lists by prefix, with sizes", async () => {
      const objects = [
        ["list/a/one.jpg", 1],
        ["list/a/two.jpg", 2],
        ["list/b/three.jpg", 3],
        ["listx/four.jpg", 4],
      ] as const;
      for (const [key, size] of objects) await storage.putBytes(key, Buffer.alloc(size, 7), { contentType: "image/jpeg" });

      expect(await listAll(storage, "list/")).toEqual([
        { key: "list/a/one.jpg", size: 1 },
        { key: "list/a/two.jpg", size: 2 },
        { key: "list/b/three.jpg", size: 3 },
      ]);
      expect(await listAll(storage, "list/a/t")).toEqual([{ key: "list/a/two.jpg", size: 2 }]);
      expect((await listAll(storage, "list")).map((object) => object.key)).toContain("listx/four.jpg");
      expect(await listAll(storage, "nothing-here/")).toEqual([]);

      for (const [key] of objects) await storage.delete(key);
      expect(await listAll(storage, "list")).toEqual([]);
    });

    it("refuses hostile keys before touching the store", async () => {
      const sourcePath = await writeScratchFile("hostile.txt", Buffer.from("payload"));
      for (const key of ["../x", "/abs", "a/../../b", "%2e%2e/x", "a\0b", "k".repeat(10_000), "a\\b"]) {
        await expect(storage.putFile(key, sourcePath, { contentType: "text/plain" })).rejects.toThrow(InvalidStorageKeyError);
        await expect(storage.putBytes(key, Buffer.from("x"), { contentType: "text/plain" })).rejects.toThrow(InvalidStorageKeyError);
        await expect(storage.read(key)).rejects.toThrow(InvalidStorageKeyError);
        await expect(storage.stat(key)).rejects.toThrow(InvalidStorageKeyError);
        await expect(storage.delete(key)).rejects.toThrow(InvalidStorageKeyError);
      }
      await expect(listAll(storage, "../")).rejects.toThrow(InvalidStorageKeyError);
    });
  });
}

// --- Local disk -------------------------------------------------------------------------------

describeStorageContract("local disk", async () => {
  const directory = path.join(scratchDirectory, "local-root");
  const storage = createStorage({ kind: "local", directory });
  expect(storage).toBeInstanceOf(LocalDiskStorage);
  return {
    storage,
    async cleanUp() {
      const left = await fs.readdir(directory, { recursive: true, withFileTypes: true });
      const files = left.filter((entry) => !entry.isDirectory()).map((entry) => path.join(entry.parentPath, entry.name));
      await fs.rm(directory, { recursive: true, force: true });
      expect(files, "objects or temporary files left on disk").toEqual([]);
    },
  };
});

// --- S3 against a real server -------------------------------------------------------------------

/** Empties and removes a test bucket; reports what was left in it. */
async function removeBucket(storage: S3Storage): Promise<{ objects: string[]; uploads: string[] }> {
  const { client, bucket } = storage;
  const objects: string[] = [];
  const uploads: string[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
    for (const object of page.Contents ?? []) {
      if (!object.Key) continue;
      objects.push(object.Key);
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: object.Key }));
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  const pending = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
  for (const upload of pending.Uploads ?? []) {
    uploads.push(`${upload.Key ?? "?"} (${upload.UploadId ?? "?"})`);
    await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: upload.Key, UploadId: upload.UploadId }));
  }
  await client.send(new DeleteBucketCommand({ Bucket: bucket }));
  return { objects, uploads };
}

async function expectBucketGone(storage: S3Storage): Promise<void> {
  const error = await failureOf(storage.client.send(new HeadBucketCommand({ Bucket: storage.bucket })));
  expect(error).toMatchObject({ $metadata: { httpStatusCode: 404 } });
  const { Buckets } = await storage.client.send(new ListBucketsCommand({}));
  expect((Buckets ?? []).map((bucket) => bucket.Name).filter((name) => name?.includes(RUN_ID))).toEqual([]);
}

describe.runIf(s3Settings)("S3 (real server at S3_ENDPOINT)", () => {
  const settings = s3Settings as Omit<S3StorageConfig, "bucket">;
  const openedStorages: S3Storage[] = [];

  function openS3(suffix: string, options: Partial<S3StorageOptions> = {}): S3Storage {
    const storage = new S3Storage({ ...settings, bucket: `contact-sheet-test-${RUN_ID}-${suffix}` }, options);
    openedStorages.push(storage);
    return storage;
  }

  afterAll(() => {
    for (const storage of openedStorages) storage.client.destroy();
  });

  describeStorageContract("S3", async () => {
    const storage = createStorage({ ...settings, bucket: `contact-sheet-test-${RUN_ID}-contract` });
    expect(storage).toBeInstanceOf(S3Storage);
    const s3 = storage as S3Storage;
    openedStorages.push(s3);
    return {
      storage,
      async cleanUp() {
        const left = await removeBucket(s3);
        await expectBucketGone(s3);
        expect(left, "objects or multipart uploads left in the bucket").toEqual({ objects: [], uploads: [] });
      },
    };
  });

  describe("S3 specifics", () => {
    let storage: S3Storage;

    beforeAll(async () => {
      storage = openS3("specifics", { multipartThresholdBytes: 5 * MEBIBYTE, partSizeBytes: 5 * MEBIBYTE });
      await storage.prepare();
      // A second start finds the bucket there and is fine with it.
      await storage.prepare();
    });

    afterAll(async () => {
      const left = await removeBucket(storage);
      await expectBucketGone(storage);
      expect(left, "objects or multipart uploads left in the bucket").toEqual({ objects: [], uploads: [] });
    });

    it("keeps the content type", async () => {
      await storage.putBytes("typed.avif", Buffer.from("x"), { contentType: "image/avif" });
      const head = await storage.client.send(new HeadObjectCommand({ Bucket: storage.bucket, Key: "typed.avif" }));
      expect(head.ContentType).toBe("image/avif");
      await storage.delete("typed.avif");
    });

    it("uploads a file above the threshold in parts, and it reads back whole", async () => {
      const bytes = randomBytes(12 * MEBIBYTE + 3);
      const sourcePath = await writeScratchFile("multipart.bin", bytes);
      const partUploads: number[] = [];
      storage.client.middlewareStack.add(
        (next, context) => async (args) => {
          if (context.commandName === "UploadPartCommand" && "PartNumber" in args.input) partUploads.push(Number(args.input.PartNumber));
          return next(args);
        },
        { step: "initialize", name: "countParts" },
      );
      try {
        await storage.putFile("multipart/photo.tiff", sourcePath, { contentType: "image/tiff" });
      } finally {
        storage.client.middlewareStack.remove("countParts");
      }
      expect(partUploads).toEqual([1, 2, 3]);
      expect(await storage.stat("multipart/photo.tiff")).toMatchObject({ size: bytes.length });
      expect(sha256(await readAll((await storage.read("multipart/photo.tiff")).body))).toBe(sha256(bytes));
      const tail = await storage.read("multipart/photo.tiff", { start: 10 * MEBIBYTE - 2, end: 10 * MEBIBYTE + 1 });
      expect((await readAll(tail.body)).equals(bytes.subarray(10 * MEBIBYTE - 2, 10 * MEBIBYTE + 2))).toBe(true);
      await storage.delete("multipart/photo.tiff");
      expect(await storage.stat("multipart/photo.tiff")).toBeNull();
    });

    it("aborts a multipart upload whose part fails, leaving no object and no parts", async () => {
      const sourcePath = await writeScratchFile("multipart-fails.bin", randomBytes(12 * MEBIBYTE));
      storage.client.middlewareStack.add(
        (next, context) => async (args) => {
          if (context.commandName === "UploadPartCommand" && "PartNumber" in args.input && args.input.PartNumber === 2) {
            throw Object.assign(new Error("injected: the store failed on part 2"), { name: "InternalError", $metadata: { httpStatusCode: 500 } });
          }
          return next(args);
        },
        { step: "initialize", name: "failPartTwo" },
      );
      let error: unknown;
      try {
        error = await failureOf(storage.putFile("multipart/broken.tiff", sourcePath, { contentType: "image/tiff" }));
      } finally {
        storage.client.middlewareStack.remove("failPartTwo");
      }
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: "SERVICE_UNAVAILABLE", status: 503 });
      expect(await storage.stat("multipart/broken.tiff")).toBeNull();
      const pending = await storage.client.send(new ListMultipartUploadsCommand({ Bucket: storage.bucket }));
      expect(pending.Uploads ?? []).toEqual([]);
    });

    it("streams a file larger than the default multipart threshold without holding it in memory", async () => {
      const large = openS3("large");
      await large.prepare();
      const size = 80 * MEBIBYTE;
      const sourcePath = path.join(scratchDirectory, `${RUN_ID}-large.bin`);
      await fs.writeFile(sourcePath, "");
      await fs.truncate(sourcePath, size);
      const before = process.memoryUsage().arrayBuffers;
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().arrayBuffers)), 5);
      try {
        await large.putFile("large/photo.tiff", sourcePath, { contentType: "image/tiff" });
        const { hash, bytes } = await sha256OfStream((await large.read("large/photo.tiff")).body);
        expect(bytes).toBe(size);
        expect(hash).toBe(await sha256OfFile(sourcePath));
      } finally {
        clearInterval(sampler);
        await fs.rm(sourcePath, { force: true });
        await large.delete("large/photo.tiff");
        const left = await removeBucket(large);
        expect(left).toEqual({ objects: [], uploads: [] });
      }
      // Holding the file would take 80 MiB at once; streaming holds a few chunks.
      expect(peak - before).toBeLessThan(48 * MEBIBYTE);
    }, 120_000);

    it("answers a wrong secret with a clear 503 at once, not a hang", async () => {
      const wrong = new S3Storage({ ...settings, bucket: storage.bucket, secretAccessKey: "not-the-secret" });
      openedStorages.push(wrong);
      const sourcePath = await writeScratchFile("wrong-secret.txt", Buffer.from("x"));
      const started = Date.now();
      for (const attempt of [
        () => wrong.check(),
        () => wrong.stat("anything"),
        () => wrong.read("anything"),
        () => wrong.putFile("anything", sourcePath, { contentType: "text/plain" }),
        () => wrong.putBytes("anything", Buffer.from("x"), { contentType: "text/plain" }),
      ]) {
        const error = await failureOf(attempt());
        expect(error).toBeInstanceOf(AppError);
        expect(error).toMatchObject({ code: "SERVICE_UNAVAILABLE", status: 503 });
        expect((error as AppError).message).toMatch(/refused our credentials.*HTTP 403/);
      }
      expect(Date.now() - started).toBeLessThan(3000);
      expect(await storage.stat("anything")).toBeNull();
    });

    it("reports a missing bucket as 503 in the health check", async () => {
      const missing = new S3Storage({ ...settings, bucket: `contact-sheet-test-${RUN_ID}-never-created` });
      openedStorages.push(missing);
      const error = await failureOf(missing.check());
      expect(error).toMatchObject({ code: "SERVICE_UNAVAILABLE", status: 503 });
      expect((error as AppError).message).toMatch(/bucket .* does not exist/);
      await expect(missing.putBytes("x", Buffer.from("x"), { contentType: "text/plain" })).rejects.toMatchObject({
        code: "SERVICE_UNAVAILABLE",
      });
    });
  });
});

// --- S3 failure modes against fake endpoints (always run) --------------------------------------

const FAKE_CREDENTIALS = { kind: "s3", region: "us-east-1", bucket: "photos", accessKeyId: "key", secretAccessKey: "secret" } as const;

describe("S3 failure modes (fake endpoints on 127.0.0.1)", () => {
  const cleanups: Array<() => Promise<void>> = [];

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  function track(storage: S3Storage): S3Storage {
    cleanups.push(async () => storage.client.destroy());
    return storage;
  }

  /** A TCP server that accepts connections and never says a word. */
  async function startSilentServer(): Promise<{ endpoint: string; connections: () => number }> {
    const sockets = new Set<net.Socket>();
    let connections = 0;
    const server = net.createServer((socket) => {
      connections += 1;
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => sockets.delete(socket));
      socket.resume(); // read and ignore whatever arrives
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    const address = server.address() as net.AddressInfo;
    return { endpoint: `http://127.0.0.1:${address.port}`, connections: () => connections };
  }

  /** An HTTP server that answers every request with `handler`. */
  async function startHttpServer(handler: http.RequestListener): Promise<{ endpoint: string; requests: string[] }> {
    const requests: string[] = [];
    const server = http.createServer((request, response) => {
      requests.push(`${request.method ?? "?"} ${request.url ?? "?"}`);
      handler(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    const address = server.address() as net.AddressInfo;
    return { endpoint: `http://127.0.0.1:${address.port}`, requests };
  }

  it("answers 503 within a few seconds when nothing listens at the endpoint", async () => {
    const port = await findFreePort();
    const storage = track(new S3Storage({ ...FAKE_CREDENTIALS, endpoint: `http://127.0.0.1:${port}` }));
    const sourcePath = await writeScratchFile("down.txt", Buffer.from("x"));
    const started = Date.now();
    for (const attempt of [
      () => storage.check(),
      () => storage.stat("a"),
      () => storage.read("a"),
      () => storage.delete("a"),
      () => storage.putFile("a", sourcePath, { contentType: "text/plain" }),
      () => listAll(storage, ""),
    ]) {
      const error = await failureOf(attempt());
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: "SERVICE_UNAVAILABLE", status: 503 });
      expect((error as AppError).message).toMatch(/cannot be reached \(ECONNREFUSED\)/);
    }
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("answers 503 once the default time limit passes when the endpoint accepts and never answers", async () => {
    const silent = await startSilentServer();
    const storage = track(new S3Storage({ ...FAKE_CREDENTIALS, endpoint: silent.endpoint }));
    const started = Date.now();
    const error = await failureOf(storage.stat("a"));
    const elapsed = Date.now() - started;
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "SERVICE_UNAVAILABLE", status: 503 });
    expect((error as AppError).message).toMatch(/did not answer in time/);
    expect(silent.connections()).toBe(1); // a timeout is not retried: the store is already slow
    expect(elapsed).toBeGreaterThanOrEqual(4_500);
    expect(elapsed).toBeLessThan(8_000);
  });

  it("answers 503 for every operation against a silent endpoint, within the configured limit", async () => {
    const silent = await startSilentServer();
    const storage = track(new S3Storage({ ...FAKE_CREDENTIALS, endpoint: silent.endpoint }, { requestTimeoutMs: 1_000 }));
    const sourcePath = await writeScratchFile("slow.bin", randomBytes(64 * 1024));
    for (const attempt of [
      () => storage.check(),
      () => storage.read("a", { start: 0, end: 9 }),
      () => storage.putBytes("a", Buffer.from("x"), { contentType: "text/plain" }),
      () => storage.putFile("a", sourcePath, { contentType: "application/octet-stream" }),
      () => storage.delete("a"),
      () => listAll(storage, "a/"),
    ]) {
      const started = Date.now();
      const error = await failureOf(attempt());
      expect(error).toMatchObject({ code: "SERVICE_UNAVAILABLE", status: 503 });
      // An upload's limit grows with its size (64 KiB at 256 KiB/s: a quarter second more).
      expect(Date.now() - started).toBeLessThan(3_000);
    }
  });

  it("ends a download that stalls midway instead of hanging the reader", async () => {
    const stalling = await startHttpServer((_request, response) => {
      response.writeHead(200, { "Content-Length": "1000", "Content-Type": "image/jpeg" });
      response.write(Buffer.alloc(10)); // then nothing more
    });
    const storage = track(new S3Storage({ ...FAKE_CREDENTIALS, endpoint: stalling.endpoint }, { idleTimeoutMs: 1_000 }));
    const object = await storage.read("photo");
    const started = Date.now();
    await expect(readAll(object.body)).rejects.toThrow(/timed out/);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("retries a 5xx answer once, then answers 503", async () => {
    const failing = await startHttpServer((_request, response) => {
      response.writeHead(503, { "Content-Type": "application/xml" });
      response.end('<?xml version="1.0"?><Error><Code>ServiceUnavailable</Code><Message>Please reduce your request rate.</Message></Error>');
    });
    const storage = track(new S3Storage({ ...FAKE_CREDENTIALS, endpoint: failing.endpoint }));
    const error = await failureOf(storage.putBytes("a", Buffer.from("x"), { contentType: "text/plain" }));
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "SERVICE_UNAVAILABLE", status: 503 });
    expect((error as AppError).message).toMatch(/answered HTTP 503/);
    expect(failing.requests).toEqual(["PUT /photos/a?x-id=PutObject", "PUT /photos/a?x-id=PutObject"]);
  });

  it("does not retry or disguise a 4xx answer that is not about availability", async () => {
    const missing = await startHttpServer((_request, response) => {
      response.writeHead(404, { "Content-Type": "application/xml" });
      response.end('<?xml version="1.0"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>');
    });
    const storage = track(new S3Storage({ ...FAKE_CREDENTIALS, endpoint: missing.endpoint }));
    await expect(storage.read("a")).rejects.toMatchObject({ code: "NOT_FOUND", status: 404 });
    expect(await storage.stat("a")).toBeNull();
    expect(missing.requests).toHaveLength(2);
  });
});
