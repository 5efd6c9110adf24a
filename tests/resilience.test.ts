import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import pg from "pg";
import sharp from "sharp";
import { afterEach, describe, expect, inject, it } from "vitest";
import { corpusFile, listFiles, type PhotoDetailBody, uploadFiles, type UploadedPhoto, waitForProcessing } from "./helpers/photos";
import { killWithSigkill } from "./helpers/server-process";
import { startTestApp, type TestApp, testStorageFromEnvironment } from "./helpers/test-app";
import { createTestUser, TestClient } from "./helpers/test-client";
import { openTestDatabase } from "./helpers/test-database";
import { createUploadPath, deleteUpload, headUpload, offsetOf, patchUpload } from "./helpers/tus";
import { TEST_SECRET } from "./setup/global-setup";

// SECURITY.md's faults that need a server of their own: SIGKILL during processing, a full disk,
// S3 going away, a client that hangs up mid-upload. Each checks that nothing half-done is left.

const ADMIN = { email: "faults@example.test", password: "faults-password-1" };

let app: TestApp | null = null;

afterEach(async () => {
  await app?.stop();
  app = null;
});

async function startApp(env: Record<string, string> = {}): Promise<TestApp> {
  app = await startTestApp(inject("databaseKind"), {
    NEXTAUTH_SECRET: TEST_SECRET,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: "error",
    ...env,
  });
  return app;
}

async function signedInAdmin(url: string): Promise<TestClient> {
  const client = new TestClient(url);
  await client.signIn(ADMIN.email, ADMIN.password);
  return client;
}

async function readRows(testApp: TestApp) {
  const db = openTestDatabase({ dataDirectory: testApp.dataDirectory, databaseUrl: testApp.databaseUrl || undefined });
  try {
    return {
      photos: await db.selectFrom("photos").select(["id", "status"]).execute(),
      jobs: await db.selectFrom("jobs").select(["id", "photo_id", "kind", "status", "attempts"]).execute(),
    };
  } finally {
    await db.destroy();
  }
}

/** A noisy 24-megapixel JPEG: seconds of work for the worker, so it can be killed in the middle. */
async function makeLargeJpeg(): Promise<Uint8Array<ArrayBuffer>> {
  const width = 6000;
  const height = 4000;
  const noise = randomBytes((width / 4) * (height / 4) * 3);
  const bytes = await sharp(noise, { raw: { width: width / 4, height: height / 4, channels: 3 } })
    .resize(width, height, { kernel: "nearest" })
    .jpeg({ quality: 90 })
    .toBuffer();
  return new Uint8Array(bytes);
}

async function uploadOne(client: TestClient, bytes: Uint8Array<ArrayBuffer>, name: string): Promise<Response> {
  return uploadFiles(client, [{ bytes, name }]);
}

describe("the server is killed while processing a photo (SIGKILL)", () => {
  it("runs the job again after a restart, and the photo becomes ready", async () => {
    const testApp = await startApp({ JOB_LEASE_SECONDS: "3", WORKER_CONCURRENCY: "1" });
    const client = await signedInAdmin(testApp.url);
    const response = await uploadOne(client, await makeLargeJpeg(), "large.jpg");
    expect(response.status).toBe(201);
    const [photo] = ((await response.json()) as { photos: UploadedPhoto[] }).photos;

    // Kill as soon as a worker holds the job.
    const deadline = Date.now() + 30_000;
    while (!(await readRows(testApp)).jobs.some((job) => job.status === "running")) {
      if (Date.now() > deadline) throw new Error("The job never started");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await killWithSigkill(testApp.server);
    // The killed job stays claimed (running) until its lease runs out; the photo has one row.
    const afterKill = await readRows(testApp);
    const killedJob = afterKill.jobs.find((job) => job.status === "running");
    expect(killedJob).toBeDefined();
    expect(afterKill.photos).toHaveLength(1);

    // Restarted, the new worker claims the job once its lease has run out, and finishes it.
    const server = await testApp.startAgain();
    const restartedClient = await signedInAdmin(server.url);
    const jobDeadline = Date.now() + 60_000;
    let rows = await readRows(testApp);
    while (rows.jobs.find((job) => job.id === killedJob?.id)?.status !== "done" && Date.now() < jobDeadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      rows = await readRows(testApp);
    }
    expect(rows.jobs.find((job) => job.id === killedJob?.id)).toMatchObject({ status: "done", attempts: 2 });
    const processed = await waitForProcessing(restartedClient, photo.id);
    expect(processed).toMatchObject({ status: "ready", width: 6000, height: 4000 });
    expect(rows.photos).toHaveLength(1);
    const variant = await restartedClient.request(processed.variants[0].url);
    expect(variant.status).toBe(200);
  }, 180_000);
});

/** Mounts a small tmpfs (root only); null where mounting is not allowed. */
function mountSmallDisk(megabytes: number): string | null {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "contact-sheet-full-disk-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${megabytes}m`, "tmpfs", directory], { stdio: "ignore" });
    return directory;
  } catch {
    fs.rmSync(directory, { recursive: true, force: true });
    return null;
  }
}

function unmount(directory: string): void {
  execFileSync("umount", [directory], { stdio: "ignore" });
  fs.rmSync(directory, { recursive: true, force: true });
}

describe("the disk is full (a 48 MB tmpfs as the data folder's upload area)", () => {
  it("answers 507, keeps no partial file and no row, and accepts uploads again once there is room", async (context) => {
    const testApp = await startApp();
    // Only the folder uploads stream into is small, so the database can still answer afterwards.
    const temporaryDirectory = path.join(testApp.dataDirectory, "tmp");
    fs.mkdirSync(temporaryDirectory, { recursive: true });
    const smallDisk = mountSmallDisk(48);
    if (!smallDisk) {
      console.warn("Skipping the disk-full test: mounting a tmpfs needs root (CI runs it).");
      context.skip();
      return;
    }
    try {
      execFileSync("mount", ["--bind", smallDisk, temporaryDirectory], { stdio: "ignore" });
      try {
        const client = await signedInAdmin(testApp.url);
        const tooLarge = new Uint8Array(64 * 1024 * 1024);
        tooLarge.set([0xff, 0xd8, 0xff, 0xe0]);
        const response = await uploadOne(client, tooLarge, "huge.jpg");
        expect(response.status).toBe(507);
        expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/disk is full/);
        expect(listFiles(temporaryDirectory)).toEqual([]);
        expect((await readRows(testApp)).photos).toEqual([]);

        // The same through tus: the chunk that finds the disk full answers 507; the upload stays
        // resumable (or can be deleted), and no photo exists.
        const tusHeaders = { "Tus-Resumable": "1.0.0" };
        const created = await client.request("/api/upload/tus", {
          method: "POST",
          headers: { ...tusHeaders, "Upload-Length": String(tooLarge.length), "Upload-Metadata": `filename ${Buffer.from("huge.jpg").toString("base64")}` },
        });
        expect(created.status).toBe(201);
        const uploadPath = new URL(created.headers.get("location") ?? "", testApp.url).pathname;
        const chunk = await client.request(uploadPath, {
          method: "PATCH",
          headers: { ...tusHeaders, "Upload-Offset": "0" },
          body: { raw: tooLarge, contentType: "application/offset+octet-stream" },
        });
        expect(chunk.status).toBe(507);
        expect((await readRows(testApp)).photos).toEqual([]);
        expect((await client.request(uploadPath, { method: "DELETE", headers: tusHeaders })).status).toBe(204);

        const small = new Uint8Array(await sharp({ create: { width: 32, height: 32, channels: 3, background: "#208040" } }).jpeg().toBuffer());
        const retry = await uploadOne(client, small, "small.jpg");
        expect(retry.status).toBe(201);
        // The worker copies the original into the same folder while it processes it.
        await waitForProcessing(client, ((await retry.json()) as { photos: UploadedPhoto[] }).photos[0].id);
      } finally {
        execFileSync("umount", ["--lazy", temporaryDirectory], { stdio: "ignore" });
      }
    } finally {
      unmount(smallDisk);
    }
  }, 120_000);
});

/** A TCP relay to the real S3 server that can be cut, so S3 "goes down" without stopping it. */
async function startRelay(target: URL): Promise<{ url: string; cut(): void; restore(): void; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let isCut = false;
  const relay = net.createServer((client) => {
    if (isCut) return client.destroy();
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => socket.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  const address = relay.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    cut() {
      isCut = true;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      isCut = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        relay.close(() => resolve());
        // The app keeps idle connections open; close() would wait for them.
        for (const socket of sockets) socket.destroy();
      }),
  };
}

describe.skipIf(!process.env.S3_ENDPOINT)("S3 goes down", () => {
  it("answers 503 to uploads and health checks, leaves no row and no temporary file, and recovers", async () => {
    const relay = await startRelay(new URL(process.env.S3_ENDPOINT as string));
    try {
      const storageEnv = { ...testStorageFromEnvironment("s3").env, S3_ENDPOINT: relay.url };
      const testApp = await startApp(storageEnv);
      const client = await signedInAdmin(testApp.url);
      const photo = new Uint8Array(await sharp({ create: { width: 48, height: 32, channels: 3, background: "#884422" } }).jpeg().toBuffer());

      relay.cut();
      const response = await uploadOne(client, photo, "while-down.jpg");
      expect(response.status, `${await response.clone().text()}\n${testApp.server.output()}`).toBe(503);
      // The store's error names no header; every 503 still says when to come back.
      expect(response.headers.get("retry-after")).toBe("5");
      const health = await client.request("/api/health");
      expect(health.status).toBe(503);
      expect(health.headers.get("retry-after")).toBe("5");
      expect((await readRows(testApp)).photos).toEqual([]);
      expect(listFiles(path.join(testApp.dataDirectory, "tmp"))).toEqual([]);

      relay.restore();
      expect((await uploadOne(client, photo, "after.jpg")).status).toBe(201);
      expect((await client.request("/api/health")).status).toBe(200);
    } finally {
      await relay.close();
    }
  }, 120_000);
});

describe("the store of unfinished tus uploads fails", () => {
  // The owner's own upload: only "no such upload" is 404; a store that cannot answer is 503, so the
  // uploader keeps Retry instead of dropping a file the server still has.
  async function expectUnavailableThenBack(client: TestClient, uploadPath: string, breakStore: () => void, mendStore: () => void): Promise<void> {
    breakStore();
    try {
      const head = await headUpload(client, uploadPath);
      expect(head.status).toBe(503);
      // Every 503 says when to come back (tus's error hook drops headers; tus-server puts it back).
      expect(head.headers.get("retry-after")).toBe("5");
      for (const response of [await patchUpload(client, uploadPath, 0, new Uint8Array(10)), await deleteUpload(client, uploadPath)]) {
        const body = await response.text();
        expect(response.status, body).toBe(503);
        expect(response.headers.get("retry-after")).toBe("5");
        expect((JSON.parse(body) as { error: { code: string } }).error.code).toBe("SERVICE_UNAVAILABLE");
      }
    } finally {
      mendStore();
    }
    expect(await offsetOf(client, uploadPath)).toBe(0);
    expect((await deleteUpload(client, uploadPath)).status).toBe(204);
    expect((await headUpload(client, uploadPath)).status).toBe(404);
  }

  it("answers 503, not 404, when the local tus folder cannot be read", async () => {
    const testApp = await startApp();
    const client = await signedInAdmin(testApp.url);
    const uploadPath = await createUploadPath(client, 1000);
    const tusDirectory = path.join(testApp.dataDirectory, "tmp", "tus");
    // The folder replaced by a file: every read under it fails (ENOTDIR), as on a broken volume.
    await expectUnavailableThenBack(
      client,
      uploadPath,
      () => {
        fs.renameSync(tusDirectory, `${tusDirectory}.away`);
        fs.writeFileSync(tusDirectory, "");
      },
      () => {
        fs.rmSync(tusDirectory);
        fs.renameSync(`${tusDirectory}.away`, tusDirectory);
      },
    );
  }, 60_000);

  it.skipIf(!process.env.S3_ENDPOINT)("answers 503, not 404, when S3 goes down", async () => {
    const relay = await startRelay(new URL(process.env.S3_ENDPOINT as string));
    try {
      const testApp = await startApp({ ...testStorageFromEnvironment("s3").env, S3_ENDPOINT: relay.url });
      const client = await signedInAdmin(testApp.url);
      const uploadPath = await createUploadPath(client, 1000);
      await expectUnavailableThenBack(client, uploadPath, () => relay.cut(), () => relay.restore());
    } finally {
      await relay.close();
    }
  }, 120_000);
});

/**
 * Opens a multipart upload by hand, declares 10 MB, sends a JPEG's first 2 MB and waits until the
 * server has begun writing it to its temporary folder: what happens next is up to the test.
 */
async function startUnfinishedUpload(testApp: TestApp, client: TestClient): Promise<net.Socket> {
  const boundary = "----contact-sheet-unfinished";
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
  );
  const port = Number(new URL(testApp.url).port);
  const socket = net.connect(port, "127.0.0.1");
  // Once the server is gone the socket errs; that is the point, not a failure.
  socket.on("error", () => {});
  await new Promise((resolve) => socket.once("connect", resolve));
  const cookie = [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  socket.write(
    [
      "POST /api/upload HTTP/1.1",
      `Host: 127.0.0.1:${port}`,
      `Origin: ${testApp.url}`,
      `Cookie: ${cookie}`,
      `Content-Type: multipart/form-data; boundary=${boundary}`,
      `Content-Length: ${10 * 1024 * 1024}`,
      "",
      "",
    ].join("\r\n"),
  );
  socket.write(head);
  socket.write(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(2 * 1024 * 1024)]));
  const temporaryDirectory = path.join(testApp.dataDirectory, "tmp");
  const deadline = Date.now() + 10_000;
  while (listFiles(temporaryDirectory).length === 0) {
    if (Date.now() > deadline) throw new Error("The server never started writing the upload");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return socket;
}

describe("the client hangs up in the middle of an upload", () => {
  it("keeps no partial file and no row", async () => {
    const testApp = await startApp();
    const client = await signedInAdmin(testApp.url);
    const socket = await startUnfinishedUpload(testApp, client);
    socket.destroy();

    const temporaryDirectory = path.join(testApp.dataDirectory, "tmp");
    const settled = Date.now() + 10_000;
    while (listFiles(temporaryDirectory).length > 0 && Date.now() < settled) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(listFiles(temporaryDirectory)).toEqual([]);
    expect((await readRows(testApp)).photos).toEqual([]);
    expect((await client.request("/api/health")).status).toBe(200);
  }, 60_000);
});

describe("the server is killed in the middle of an upload (SIGKILL)", () => {
  it("removes the half-received file at the next start, with no row and no stored original", async () => {
    const testApp = await startApp();
    const client = await signedInAdmin(testApp.url);
    const socket = await startUnfinishedUpload(testApp, client);
    await killWithSigkill(testApp.server);
    socket.destroy();
    const temporaryDirectory = path.join(testApp.dataDirectory, "tmp");
    // Nobody could clean up: the half-received file is still there.
    expect(listFiles(temporaryDirectory)).toHaveLength(1);

    const server = await testApp.startAgain();
    expect(listFiles(temporaryDirectory)).toEqual([]);
    expect((await readRows(testApp)).photos).toEqual([]);
    expect(listFiles(path.join(testApp.dataDirectory, "media", "originals"))).toEqual([]);

    // A resumable (tus) upload cut the same way is still there after the restart, and finishes.
    const restartedClient = await signedInAdmin(server.url);
    const photo = corpusFile("exif-samples/jpg/Canon_40D.jpg");
    const uploadPath = await createUploadPath(restartedClient, photo.length, "resumed.jpg");
    const half = Math.floor(photo.length / 2);
    expect((await patchUpload(restartedClient, uploadPath, 0, photo.slice(0, half))).status).toBe(204);
    await killWithSigkill(server);

    const again = await testApp.startAgain();
    const resumingClient = await signedInAdmin(again.url);
    expect(await offsetOf(resumingClient, uploadPath)).toBe(half);
    const finished = await patchUpload(resumingClient, uploadPath, half, photo.slice(half));
    expect(finished.status, await finished.clone().text()).toBe(200);
    const { photo: resumed } = (await finished.json()) as { photo: UploadedPhoto };
    expect(resumed).toMatchObject({ name: "resumed.jpg", isDuplicate: false });
    expect((await readRows(testApp)).photos).toHaveLength(1);
    expect(await waitForProcessing(resumingClient, resumed.id)).toMatchObject({ status: "ready" });
    const original = await resumingClient.request(`/api/photos/${resumed.id}/original`);
    expect(Buffer.from(await original.arrayBuffer()).equals(Buffer.from(photo))).toBe(true);
  }, 120_000);
});

describe("files that no photo row names (killed between storing an original and its row, or a deletion that failed)", () => {
  it("are removed at the next start once they are an hour old; younger ones, foreign keys and every photo's own stay", async () => {
    const testApp = await startApp();
    const client = await signedInAdmin(testApp.url);
    const kept = await uploadOne(client, corpusFile("exif-samples/jpg/Canon_40D.jpg"), "kept.jpg");
    expect(kept.status).toBe(201);
    const [keptPhoto] = ((await kept.json()) as { photos: UploadedPhoto[] }).photos;
    expect(await waitForProcessing(client, keptPhoto.id)).toMatchObject({ status: "ready" });
    await testApp.server.stop();

    const media = path.join(testApp.dataDirectory, "media");
    const plant = (key: string, modifiedAt: Date) => {
      const filePath = path.join(media, key);
      fs.mkdirSync(path.dirname(filePath), { recursive: true });
      fs.writeFileSync(filePath, corpusFile("exif-samples/jpg/Nikon_D70.jpg"));
      fs.utimesSync(filePath, modifiedAt, modifiedAt);
      return key;
    };
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    const goneId = crypto.randomUUID();
    const youngId = crypto.randomUUID();
    const old = [
      plant(`originals/${goneId.slice(0, 2)}/${goneId}`, twoHoursAgo),
      plant(`variants/${goneId.slice(0, 2)}/${goneId}/jpeg-400-0123456789abcdef0123.jpg`, twoHoursAgo),
      plant(`variants/${goneId.slice(0, 2)}/${goneId}/webp-400-0123456789abcdef0123.webp`, twoHoursAgo),
    ];
    const young = [
      plant(`originals/${youngId.slice(0, 2)}/${youngId}`, new Date()),
      plant(`variants/${youngId.slice(0, 2)}/${youngId}/jpeg-400-0123456789abcdef0123.jpg`, new Date()),
    ];
    // Not a key the app makes: never its to remove, however old.
    const foreign = plant("variants/notes/read-me.txt", twoHoursAgo);
    const before = listFiles(media);
    expect(before.filter((key) => key.includes(keptPhoto.id)).length).toBeGreaterThan(1);

    await testApp.startAgain();
    const deadline = Date.now() + 20_000;
    while (old.some((key) => listFiles(media).includes(key)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(listFiles(media)).toEqual(before.filter((key) => !old.includes(key)));
    expect(listFiles(media)).toEqual(expect.arrayContaining([...young, foreign]));
    expect((await readRows(testApp)).photos).toHaveLength(1);
  }, 60_000);
});

describe.runIf(inject("databaseKind") === "sqlite")("SQLite is busy (another process holds the write lock)", () => {
  it("waits for the lock and succeeds; past the busy timeout answers 503 and keeps nothing; acknowledged photos stay", async () => {
    const testApp = await startApp({ RUN_WORKER: "false" });
    const client = await signedInAdmin(testApp.url);
    const first = await uploadOne(client, corpusFile("exif-samples/jpg/Canon_40D.jpg"), "first.jpg");
    expect(first.status).toBe(201);

    // A second writer on the same file, as a separate worker process or a backup tool would be.
    const other = new SQLite(path.join(testApp.dataDirectory, "contact-sheet.sqlite"));
    try {
      other.exec("BEGIN IMMEDIATE");
      setTimeout(() => other.exec("COMMIT"), 1000);
      const waited = await uploadOne(client, corpusFile("exif-samples/jpg/Nikon_D70.jpg"), "waited.jpg");
      expect(waited.status, await waited.clone().text()).toBe(201);

      other.exec("BEGIN IMMEDIATE");
      const refused = await uploadOne(client, corpusFile("exif-samples/jpg/Fujifilm_FinePix_E500.jpg"), "refused.jpg");
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("5");
      other.exec("COMMIT");
    } finally {
      other.close();
    }
    const { photos } = await readRows(testApp);
    expect(photos).toHaveLength(2);
    expect(listFiles(path.join(testApp.dataDirectory, "media", "originals"))).toHaveLength(2);
    expect(listFiles(path.join(testApp.dataDirectory, "tmp"))).toEqual([]);
  }, 60_000);
});

describe.runIf(inject("databaseKind") === "postgres")("the PostgreSQL pool is exhausted", () => {
  it("answers 503 after the connection timeout, and the waiting requests finish once connections free up", async () => {
    const testApp = await startApp({ DATABASE_POOL_SIZE: "2", RUN_WORKER: "false" });
    const client = await signedInAdmin(testApp.url);
    // Another session locks the photos table, so each photo query holds its pooled connection.
    const locker = new pg.Client({ connectionString: testApp.databaseUrl });
    await locker.connect();
    try {
      await locker.query("BEGIN");
      await locker.query("LOCK TABLE photos IN ACCESS EXCLUSIVE MODE");
      // Two of them hold both connections until the lock goes; the third waits for a connection and
      // gives up after the pool's connection timeout (5 s). Until then none of them can answer.
      const responses = [1, 2, 3].map(() => client.request("/api/photos"));
      const refused = await Promise.race(responses);
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("5");
      await locker.query("COMMIT");
      expect((await Promise.all(responses)).map((response) => response.status).sort()).toEqual([200, 200, 503]);
    } finally {
      await locker.end();
    }
    expect((await client.request("/api/photos")).status).toBe(200);
  }, 60_000);
});

describe("a photo whose processing fails", () => {
  it("shows in the admin queue with its reason, and can be retried by whoever may edit it", async () => {
    // The worker is off while the stored original is damaged (as a failing disk or a bad restore
    // would), so its processing fails for good: the upload checks cannot catch this.
    const testApp = await startApp({ RUN_WORKER: "false" });
    const uploader = await signedInAdmin(testApp.url);
    const response = await uploadOne(uploader, corpusFile("exif-samples/jpg/Canon_40D.jpg"), "damaged.jpg");
    expect(response.status).toBe(201);
    const [photo] = ((await response.json()) as { photos: UploadedPhoto[] }).photos;
    await testApp.server.stop();
    const [original] = listFiles(path.join(testApp.dataDirectory, "media", "originals"));
    const originalPath = path.join(testApp.dataDirectory, "media", "originals", original);
    fs.truncateSync(originalPath, Math.floor(fs.statSync(originalPath).size / 2));

    const server = await testApp.startAgain({ RUN_WORKER: "true" });
    const admin = await signedInAdmin(server.url);
    const failed = await waitForStatus(admin, photo.id, "failed");
    expect(failed.failureReason).toBe("The image could not be decoded: the file is truncated or corrupt.");

    const dashboard = await (await admin.request("/admin")).text();
    expect(dashboard).toContain("damaged.jpg");
    expect(dashboard).toContain("The image could not be decoded: the file is truncated or corrupt.");
    expect(dashboard).toContain(">Retry</button>");

    // Someone else's editor may not even learn that the photo exists.
    const editorUser = await createTestUser(admin, "editor");
    const editor = new TestClient(admin.baseUrl);
    await editor.signIn(editorUser.email, editorUser.password);
    expect((await editor.request(`/api/photos/${photo.id}/retry`, { method: "POST" })).status).toBe(404);

    const retried = await admin.request(`/api/photos/${photo.id}/retry`, { method: "POST" });
    expect(retried.status).toBe(202);
    await waitForStatus(admin, photo.id, "failed");
    const { jobs } = await readRows(testApp);
    // One processing job per try, each failed; no later phase was ever queued.
    expect(jobs.map((job) => [job.kind, job.status])).toEqual([["photo.process", "failed"], ["photo.process", "failed"]]);

    // Only a failed photo can be retried.
    const fine = await uploadOne(admin, corpusFile("exif-samples/jpg/Nikon_D70.jpg"), "fine.jpg");
    const [finePhoto] = ((await fine.json()) as { photos: UploadedPhoto[] }).photos;
    await waitForStatus(admin, finePhoto.id, "ready");
    expect((await admin.request(`/api/photos/${finePhoto.id}/retry`, { method: "POST" })).status).toBe(409);
  }, 120_000);
});

/**
 * Polls until the photo has this status. (It may be `ready` on the way to `failed`: it shows once its
 * smallest variants exist, and fails when a larger one cannot be made.)
 */
async function waitForStatus(client: TestClient, id: string, status: string): Promise<PhotoDetailBody> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const photo = await waitForProcessing(client, id);
    if (photo.status === status) return photo;
    if (Date.now() > deadline) throw new Error(`Photo ${id} is ${photo.status}, not ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
