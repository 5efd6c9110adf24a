import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { statSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { AppError } from "@/src/errors/app-error";
import { LocalDiskStorage, writeFileAtomically } from "./local-disk-storage";
import { InvalidStorageKeyError } from "./storage";

const MEBIBYTE = 1024 * 1024;

let workDirectory: string;
let root: string;
let storage: LocalDiskStorage;

beforeEach(async () => {
  workDirectory = await fs.mkdtemp(path.join(os.tmpdir(), "contact-sheet-storage-unit-"));
  root = path.join(workDirectory, "root");
  storage = new LocalDiskStorage(root);
  await storage.prepare();
});

afterEach(async () => {
  vi.restoreAllMocks();
  await fs.rm(workDirectory, { recursive: true, force: true });
});

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** Whether `directory` exists on another filesystem than the system's temporary directory. */
function isOtherFilesystem(directory: string): boolean {
  try {
    return statSync(directory).dev !== statSync(os.tmpdir()).dev;
  } catch {
    return false;
  }
}

async function writeSource(name: string, bytes: Uint8Array): Promise<string> {
  const sourcePath = path.join(workDirectory, name);
  await fs.writeFile(sourcePath, bytes);
  return sourcePath;
}

async function collect(prefix: string, from: LocalDiskStorage = storage): Promise<Array<{ key: string; size: number }>> {
  const found: Array<{ key: string; size: number }> = [];
  for await (const object of from.list(prefix)) found.push(object);
  return found.sort((a, b) => a.key.localeCompare(b.key));
}

async function listFilesUnder(directory: string): Promise<string[]> {
  const entries = await fs.readdir(directory, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => !entry.isDirectory()).map((entry) => path.relative(directory, path.join(entry.parentPath, entry.name)));
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** What a failing FileHandle.write throws: an errno error like the kernel's. */
function systemError(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: simulated, write`), { code, syscall: "write" });
}

/**
 * Makes every FileHandle write after the first `allowedWrites` fail with `code`, the way a full
 * disk or an exhausted quota does midway through a file.
 */
async function failWritesAfter(allowedWrites: number, code: string): Promise<void> {
  const probe = await fs.open(__filename, "r");
  const prototype = Object.getPrototypeOf(probe) as fs.FileHandle;
  await probe.close();
  const originalWrite = prototype.write;
  let writes = 0;
  vi.spyOn(prototype, "write").mockImplementation(function (this: fs.FileHandle, ...args: unknown[]) {
    writes += 1;
    if (writes > allowedWrites) return Promise.reject(systemError(code));
    return Reflect.apply(originalWrite, this, args) as ReturnType<fs.FileHandle["write"]>;
  } as fs.FileHandle["write"]);
}

describe("LocalDiskStorage round trip", () => {
  it("stores a file and reads back the same bytes", async () => {
    const bytes = randomBytes(3 * MEBIBYTE + 17);
    const sourcePath = await writeSource("source.bin", bytes);

    await storage.putFile("originals/ab/photo.jpg", sourcePath, { contentType: "image/jpeg" });

    const object = await storage.read("originals/ab/photo.jpg");
    expect(object.size).toBe(bytes.length);
    expect(object.contentLength).toBe(bytes.length);
    expect(object.range).toBeNull();
    expect(sha256(await readAll(object.body))).toBe(sha256(bytes));
    expect(sha256(await fs.readFile(sourcePath))).toBe(sha256(bytes)); // the source is left for the caller
    expect(await storage.stat("originals/ab/photo.jpg")).toEqual({ size: bytes.length, modifiedAt: expect.any(Date) });
  });

  it("moves a source the caller is done with into place", async () => {
    const bytes = randomBytes(MEBIBYTE + 5);
    const sourcePath = await writeSource("upload.bin", bytes);
    await storage.putFile("originals/cd/moved.jpg", sourcePath, { contentType: "image/jpeg", mayMoveSource: true });
    expect(sha256(await readAll((await storage.read("originals/cd/moved.jpg")).body))).toBe(sha256(bytes));
    await expect(fs.stat(sourcePath)).rejects.toMatchObject({ code: "ENOENT" });
    expect(await fs.readdir(path.join(root, ".tmp"))).toEqual([]);
  });

  // /dev/shm is a tmpfs on Linux: a rename from there fails with EXDEV.
  it.skipIf(!isOtherFilesystem("/dev/shm"))("copies a source it may move when that lies on another filesystem", async () => {
    const elsewhere = await fs.mkdtemp("/dev/shm/contact-sheet-storage-unit-");
    try {
      const bytes = randomBytes(MEBIBYTE + 5);
      const sourcePath = path.join(elsewhere, "upload.bin");
      await fs.writeFile(sourcePath, bytes);
      await storage.putFile("originals/cd/copied.jpg", sourcePath, { contentType: "image/jpeg", mayMoveSource: true });
      expect(sha256(await readAll((await storage.read("originals/cd/copied.jpg")).body))).toBe(sha256(bytes));
      expect(sha256(await fs.readFile(sourcePath))).toBe(sha256(bytes));
    } finally {
      await fs.rm(elsewhere, { recursive: true, force: true });
    }
  });

  it("stores bytes, and a second put replaces the object whole", async () => {
    await storage.putBytes("variants/a.webp", Buffer.from("first version, longer"), { contentType: "image/webp" });
    await storage.putBytes("variants/a.webp", Buffer.from("second"), { contentType: "image/webp" });
    const object = await storage.read("variants/a.webp");
    expect((await readAll(object.body)).toString()).toBe("second");
    expect(object.size).toBe(6);
  });

  it("tells where an object lies on disk, so processing can read it without a copy", async () => {
    await storage.putBytes("originals/ab/photo", new TextEncoder().encode("pixels"), { contentType: "image/jpeg" });
    const filePath = await storage.localPathOf("originals/ab/photo");
    expect(filePath && (await fs.readFile(filePath, "utf8"))).toBe("pixels");
    expect(await storage.localPathOf("originals/ab/missing")).toBeNull();
    await expect(storage.localPathOf("../outside")).rejects.toThrow("Invalid storage key");
  });

  it("stores and reads an empty object", async () => {
    await storage.putBytes("empty", new Uint8Array(0), { contentType: "application/octet-stream" });
    const object = await storage.read("empty");
    expect(object.size).toBe(0);
    expect((await readAll(object.body)).length).toBe(0);
    await expect(storage.read("empty", { start: 0, end: 0 })).rejects.toThrow(RangeError);
  });

  it("leaves no temporary file after writes", async () => {
    await storage.putBytes("a", Buffer.from("x"), { contentType: "text/plain" });
    await storage.putFile("b", await writeSource("b.bin", randomBytes(1000)), { contentType: "text/plain" });
    expect(await fs.readdir(path.join(root, ".tmp"))).toEqual([]);
    expect((await listFilesUnder(root)).sort()).toEqual(["a", "b"]);
  });

  it("streams a large file instead of reading it into memory", async () => {
    const size = 160 * MEBIBYTE;
    const sourcePath = path.join(workDirectory, "large.bin");
    await fs.writeFile(sourcePath, "");
    await fs.truncate(sourcePath, size);
    const before = process.memoryUsage().arrayBuffers;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().arrayBuffers);
    }, 5);
    try {
      await storage.putFile("large", sourcePath, { contentType: "application/octet-stream" });
      const object = await storage.read("large");
      let total = 0;
      for await (const chunk of object.body) {
        total += (chunk as Buffer).length;
        peak = Math.max(peak, process.memoryUsage().arrayBuffers);
      }
      expect(total).toBe(size);
    } finally {
      clearInterval(sampler);
    }
    // Reading the file whole would take 160 MiB at once; streaming holds a few 1 MiB chunks.
    expect(peak - before).toBeLessThan(48 * MEBIBYTE);
    expect(await storage.stat("large")).toMatchObject({ size });
  });
});

describe("LocalDiskStorage ranges", () => {
  const bytes = Buffer.from(Array.from({ length: 1000 }, (_, index) => index % 251));

  beforeEach(async () => {
    await storage.putBytes("ranged", bytes, { contentType: "application/octet-stream" });
  });

  it.each([
    ["first byte", 0, 0],
    ["last byte", 999, 999],
    ["middle", 100, 199],
    ["whole object", 0, 999],
  ])("reads the %s", async (_label, start, end) => {
    const object = await storage.read("ranged", { start, end });
    expect(object.size).toBe(1000);
    expect(object.contentLength).toBe(end - start + 1);
    expect(object.range).toEqual({ start, end });
    expect(await readAll(object.body)).toEqual(bytes.subarray(start, end + 1));
  });

  it("clamps an end past the last byte, as HTTP does", async () => {
    const object = await storage.read("ranged", { start: 990, end: 5000 });
    expect(object.range).toEqual({ start: 990, end: 999 });
    expect(object.contentLength).toBe(10);
    expect(await readAll(object.body)).toEqual(bytes.subarray(990));
  });

  it("refuses a start past the end and a malformed range", async () => {
    await expect(storage.read("ranged", { start: 1000, end: 1000 })).rejects.toThrow(RangeError);
    await expect(storage.read("ranged", { start: 10, end: 5 })).rejects.toThrow(RangeError);
  });
});

describe("LocalDiskStorage stat, delete and list", () => {
  it("answers null and 404 for a missing object", async () => {
    expect(await storage.stat("missing")).toBeNull();
    const error = await storage.read("missing").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "NOT_FOUND", status: 404 });
  });

  it("treats a key that is a directory of other keys as missing", async () => {
    await storage.putBytes("folder/inner", Buffer.from("x"), { contentType: "text/plain" });
    expect(await storage.stat("folder")).toBeNull();
    await expect(storage.read("folder")).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(storage.delete("folder")).resolves.toBeUndefined();
    expect(await storage.stat("folder/inner")).toMatchObject({ size: 1 });
  });

  it("deletes, and deleting again still succeeds", async () => {
    await storage.putBytes("gone/soon", Buffer.from("bye"), { contentType: "text/plain" });
    await storage.delete("gone/soon");
    expect(await storage.stat("gone/soon")).toBeNull();
    await expect(storage.read("gone/soon")).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(storage.delete("gone/soon")).resolves.toBeUndefined();
    await expect(storage.delete("never/was")).resolves.toBeUndefined();
  });

  it("lists by prefix, with sizes, and never lists temporary files", async () => {
    for (const [key, size] of [
      ["originals/a/1.jpg", 1],
      ["originals/a/2.jpg", 2],
      ["originals/b/3.jpg", 3],
      ["originalsx/4.jpg", 4],
      ["variants/5.webp", 5],
    ] as const) {
      await storage.putBytes(key, Buffer.alloc(size), { contentType: "image/jpeg" });
    }
    await fs.writeFile(path.join(root, ".tmp", "123.leftover.tmp"), "partial");

    expect(await collect("originals/")).toEqual([
      { key: "originals/a/1.jpg", size: 1 },
      { key: "originals/a/2.jpg", size: 2 },
      { key: "originals/b/3.jpg", size: 3 },
    ]);
    expect((await collect("originals")).map((object) => object.key)).toEqual([
      "originals/a/1.jpg",
      "originals/a/2.jpg",
      "originals/b/3.jpg",
      "originalsx/4.jpg",
    ]);
    expect((await collect("originals/a/2")).map((object) => object.key)).toEqual(["originals/a/2.jpg"]);
    expect(await collect("")).toHaveLength(5);
    expect(await collect("nothing/")).toEqual([]);
    await expect(collect("../")).rejects.toThrow(InvalidStorageKeyError);
  });
});

describe("LocalDiskStorage refuses hostile keys", () => {
  const hostileKeys = ["../x", "/abs", "a/../../b", "%2e%2e/x", "a\0b", "k".repeat(10_000), "a\\..\\..\\b", "..", ".tmp/x", ""];

  it.each(hostileKeys.map((key) => [key.length > 40 ? `${key.slice(0, 10)}… (${key.length} characters)` : key, key]))(
    "refuses %j in every method and writes nothing",
    async (_label, key) => {
      const sourcePath = await writeSource("innocent.txt", Buffer.from("payload"));
      const options = { contentType: "text/plain" };
      await expect(storage.putFile(key, sourcePath, options)).rejects.toThrow(InvalidStorageKeyError);
      await expect(storage.putBytes(key, Buffer.from("payload"), options)).rejects.toThrow(InvalidStorageKeyError);
      await expect(storage.read(key)).rejects.toThrow(InvalidStorageKeyError);
      await expect(storage.stat(key)).rejects.toThrow(InvalidStorageKeyError);
      await expect(storage.delete(key)).rejects.toThrow(InvalidStorageKeyError);
      expect(await listFilesUnder(workDirectory)).toEqual(["innocent.txt"]);
    },
  );

  it("does not follow a symbolic link out of the root", async () => {
    const secretPath = await writeSource("secret.txt", Buffer.from("outside the root"));
    await fs.mkdir(path.join(root, "evil"), { recursive: true });
    await fs.symlink(secretPath, path.join(root, "evil", "link"));
    await fs.symlink(workDirectory, path.join(root, "escape"));

    await expect(storage.read("evil/link")).rejects.toThrow(/outside the storage root/);
    await expect(storage.stat("evil/link")).rejects.toThrow(/outside the storage root/);
    await expect(storage.read("escape/secret.txt")).rejects.toThrow(/outside the storage root/);
    expect((await collect("")).map((object) => object.key)).toEqual([]);
  });
});

describe("LocalDiskStorage failed writes leave nothing behind", () => {
  it("removes the temporary file when the source stream fails midway, and keeps the old object", async () => {
    await storage.putBytes("photo", Buffer.from("old version"), { contentType: "image/jpeg" });
    async function* failingSource(): AsyncGenerator<Uint8Array> {
      yield randomBytes(MEBIBYTE);
      yield randomBytes(MEBIBYTE);
      throw new Error("client went away");
    }

    await expect(writeFileAtomically(path.join(root, "photo"), failingSource(), path.join(root, ".tmp"))).rejects.toThrow(
      "client went away",
    );
    await expect(writeFileAtomically(path.join(root, "new/photo"), failingSource(), path.join(root, ".tmp"))).rejects.toThrow(
      "client went away",
    );

    expect(await fs.readdir(path.join(root, ".tmp"))).toEqual([]);
    expect((await readAll((await storage.read("photo")).body)).toString()).toBe("old version");
    expect(await storage.stat("new/photo")).toBeNull();
  });

  it("fails cleanly when the source file does not exist", async () => {
    await expect(storage.putFile("x", path.join(workDirectory, "nope"), { contentType: "image/jpeg" })).rejects.toMatchObject({
      code: "ENOENT",
    });
    expect(await storage.stat("x")).toBeNull();
    expect(await fs.readdir(path.join(root, ".tmp"))).toEqual([]);
  });

  it("answers 507 when the disk quota runs out midway (EDQUOT, simulated), removing the partial file", async () => {
    const sourcePath = await writeSource("big.bin", randomBytes(4 * MEBIBYTE));
    await failWritesAfter(2, "EDQUOT");

    const error = await storage.putFile("quota/photo", sourcePath, { contentType: "image/jpeg" }).catch((caught: unknown) => caught);
    vi.restoreAllMocks();

    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "INSUFFICIENT_STORAGE", status: 507 });
    expect((error as AppError).message).toMatch(/quota is used up/);
    expect(await storage.stat("quota/photo")).toBeNull();
    expect(await fs.readdir(path.join(root, ".tmp"))).toEqual([]);
  });
});

describe("LocalDiskStorage on a full disk (a 1 MiB tmpfs)", () => {
  let mountPoint: string;
  let isMounted = false;

  beforeAll(async () => {
    mountPoint = await fs.mkdtemp(path.join(os.tmpdir(), "contact-sheet-tmpfs-"));
    try {
      execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint], { stdio: "pipe" });
      isMounted = true;
    } catch (error) {
      // Without the right to mount (not root), the same case runs against simulated ENOSPC writes.
      console.log(
        `Could not mount a tmpfs (${error instanceof Error ? error.message.split("\n")[0] : String(error)}): ` +
          "the disk-full test simulates ENOSPC on FileHandle.write instead.",
      );
    }
  });

  afterAll(async () => {
    if (isMounted) execFileSync("umount", [mountPoint]);
    await fs.rm(mountPoint, { recursive: true, force: true });
  });

  it("answers 507 with a clear message, removes the partial file, and keeps working once there is room", async () => {
    const fullRoot = path.join(mountPoint, "root");
    const fullStorage = new LocalDiskStorage(fullRoot);
    await fullStorage.prepare();
    await fullStorage.putBytes("small/kept", Buffer.from("still here"), { contentType: "text/plain" });
    const sourcePath = await writeSource("too-big.bin", randomBytes(2 * MEBIBYTE));
    if (!isMounted) await failWritesAfter(2, "ENOSPC");

    const error = await fullStorage.putFile("big/photo", sourcePath, { contentType: "image/jpeg" }).catch((caught: unknown) => caught);
    vi.restoreAllMocks();

    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "INSUFFICIENT_STORAGE", status: 507 });
    expect((error as AppError).message).toMatch(/disk is full/);
    expect(await fullStorage.stat("big/photo")).toBeNull();
    expect(await fs.readdir(path.join(fullRoot, ".tmp"))).toEqual([]);
    expect((await readAll((await fullStorage.read("small/kept")).body)).toString()).toBe("still here");
    // The partial file's space was given back: a file of most of the disk fits now.
    await fullStorage.putFile("medium", await writeSource("medium.bin", randomBytes(700 * 1024)), { contentType: "image/jpeg" });
    expect(await fullStorage.stat("medium")).toMatchObject({ size: 700 * 1024 });
  });
});

describe("LocalDiskStorage prepare and check", () => {
  it("removes temporary files of dead processes at start, and keeps a live writer's", async () => {
    const temporaryDirectory = path.join(root, ".tmp");
    const deadPid = 2 ** 22 + 1; // above Linux's pid_max, so no process has it
    const host = os.hostname();
    const orphan = `${deadPid}.00000000-0000-4000-8000-000000000000.${host}.tmp`;
    const live = `${process.pid}.00000000-0000-4000-8000-000000000001.${host}.tmp`;
    const otherHostFresh = `${deadPid}.00000000-0000-4000-8000-000000000002.other-host.tmp`;
    const otherHostOld = `${deadPid}.00000000-0000-4000-8000-000000000003.other-host.tmp`;
    for (const name of [orphan, live, otherHostFresh, otherHostOld]) await fs.writeFile(path.join(temporaryDirectory, name), "x");
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await fs.utimes(path.join(temporaryDirectory, otherHostOld), twoHoursAgo, twoHoursAgo);

    await storage.prepare();

    expect((await fs.readdir(temporaryDirectory)).sort()).toEqual([live, otherHostFresh].sort());
  });

  it("creates the root when missing, and the health check passes", async () => {
    const fresh = new LocalDiskStorage(path.join(workDirectory, "a", "b"));
    await expect(fresh.check()).rejects.toMatchObject({ code: "SERVICE_UNAVAILABLE" });
    await fresh.prepare();
    await expect(fresh.check()).resolves.toBeUndefined();
  });

  it("fails the health check with 503 when the root is not a usable directory", async () => {
    const filePath = await writeSource("not-a-directory", Buffer.from("x"));
    const error = await new LocalDiskStorage(filePath).check().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "SERVICE_UNAVAILABLE", status: 503 });
    expect((error as AppError).message).toMatch(/not a directory/);
  });
});
