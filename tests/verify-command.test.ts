import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Database } from "@/src/db/database";
import { createStorage } from "@/src/storage/create-storage";
import { readStoredBytes } from "@/src/storage/read-stored-bytes";
import type { Storage } from "@/src/storage/storage";
import { runContactSheet } from "./helpers/contact-sheet-command";
import { uploadCorpusFile, waitForProcessing } from "./helpers/photos";
import { startTestApp, type TestApp, testStorageFromEnvironment } from "./helpers/test-app";
import { createTestUser, TestClient } from "./helpers/test-client";
import { openTestDatabase } from "./helpers/test-database";
import { TEST_ADMIN, TEST_SECRET } from "./setup/global-setup";

// `contact-sheet verify` (issue 29): storage and the database must agree. A deleted variant, an
// orphan file and an original with one byte flipped are each reported (exit code 1); --repair
// makes the variants again and moves the orphan to the quarantine folder, and leaves the changed
// original alone. An app of its own: verify reads every photo and file there is, and on the shared
// app (every earlier file's photos, on S3) that took a minute.

let app: TestApp;
let appEnv: Record<string, string>;
let db: Kysely<Database>;
let storage: Storage;
let client: TestClient;
let photoIds: string[];
let originalOfChanged: Buffer;

async function waitForEveryVariant(id: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const photo = await waitForProcessing(client, id);
    expect(photo.status).toBe("ready");
    if (photo.variants.some((variant) => variant.format === "avif")) return;
    if (Date.now() > deadline) throw new Error(`Photo ${id} has no AVIF variants yet`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function storedVariantKeys(photoId: string): Promise<{ recorded: string[]; missing: string[] }> {
  const rows = await db.selectFrom("photo_variants").select("storage_key").where("photo_id", "=", photoId).execute();
  const recorded = rows.map((row) => row.storage_key);
  const missing: string[] = [];
  for (const key of recorded) if (!(await storage.stat(key))) missing.push(key);
  return { recorded, missing };
}

beforeAll(async () => {
  const storageSetup = testStorageFromEnvironment(inject("storageConfig").kind);
  const env = { ...storageSetup.env, NEXTAUTH_SECRET: TEST_SECRET, ADMIN_EMAIL: TEST_ADMIN.email, ADMIN_PASSWORD: TEST_ADMIN.password, TRUST_PROXY: "true" };
  app = await startTestApp(inject("databaseKind"), env);
  appEnv = { ...env, DATA_DIR: app.dataDirectory, ...(app.databaseUrl ? { DATABASE_URL: app.databaseUrl } : {}) };
  db = openTestDatabase({ dataDirectory: app.dataDirectory, databaseUrl: app.databaseUrl || undefined });
  storage = createStorage(storageSetup.config ?? { kind: "local", directory: path.join(app.dataDirectory, "media") });
  const admin = new TestClient(app.url);
  await admin.signIn(TEST_ADMIN.email, TEST_ADMIN.password);
  const editor = await createTestUser(admin, "editor", "Verify editor");
  client = new TestClient(app.url);
  await client.signIn(editor.email, editor.password);
  photoIds = [];
  for (const file of ["exif-samples/jpg/Canon_40D.jpg", "exif-samples/jpg/Nikon_D70.jpg"]) photoIds.push((await uploadCorpusFile(client, file)).id);
  for (const id of photoIds) await waitForEveryVariant(id);
}, 180_000);

afterAll(async () => {
  await db?.destroy();
  await app?.stop();
});

describe("contact-sheet verify", () => {
  it("reports a missing variant, an orphan file and a changed original, and --repair fixes what it may", async () => {
    const [lostVariants, changed] = photoIds;
    const env = appEnv;

    // A variant gone, an original nobody owns, one byte of another original flipped.
    const { recorded } = await storedVariantKeys(lostVariants);
    const deletedVariant = recorded[0];
    await storage.delete(deletedVariant);
    const orphanId = randomUUID();
    const orphanKey = `originals/${orphanId.slice(0, 2)}/${orphanId}`;
    await storage.putBytes(orphanKey, new TextEncoder().encode("nobody's photo"), { contentType: "image/jpeg" });
    const changedKey = (await db.selectFrom("photos").select("original_key").where("id", "=", changed).executeTakeFirstOrThrow()).original_key;
    originalOfChanged = await readStoredBytes(storage, changedKey);
    const flipped = Buffer.from(originalOfChanged);
    flipped[flipped.length >> 1] ^= 0xff;
    await storage.putBytes(changedKey, flipped, { contentType: "image/jpeg" });

    try {
      const found = await runContactSheet(["verify", "--orphan-age-minutes", "0"], env);
      expect(found.code, found.output).toBe(1);
      expect(found.stdout).toContain(`missing variants: photo ${lostVariants} lacks ${deletedVariant}`);
      expect(found.stdout).toContain(`orphan file: ${orphanKey} (14 bytes) belongs to no photo`);
      expect(found.stdout).toMatch(new RegExp(`original changed: photo ${changed} \\(${changedKey}\\) has SHA-256 [0-9a-f]{64}`));

      // A file younger than the default hour may be an upload about to commit its row: not judged.
      const young = await runContactSheet(["verify"], env);
      expect(young.stdout).not.toContain(orphanKey);

      const repaired = await runContactSheet(["verify", "--repair", "--orphan-age-minutes", "0"], env);
      // The changed original is left as it is, so something is still wrong.
      expect(repaired.code, repaired.output).toBe(1);
      expect(repaired.stdout).toContain(`repaired: photo ${lostVariants}'s variants are queued to be made again`);
      expect(repaired.stdout).toMatch(new RegExp(`not repaired .*original changed: photo ${changed}`));
      const moved = new RegExp(`repaired: ${orphanKey} moved to (\\S+)`).exec(repaired.stdout);
      expect(moved, repaired.output).not.toBeNull();
      expect(moved![1].startsWith(path.join(app.dataDirectory, "quarantine"))).toBe(true);
      expect(fs.readFileSync(moved![1], "utf8")).toBe("nobody's photo");
      expect(await storage.stat(orphanKey)).toBeNull();
      expect(Buffer.compare(await readStoredBytes(storage, changedKey), flipped)).toBe(0);

      // The worker makes every variant again from the original (the same bytes get the same content-named key).
      const deadline = Date.now() + 60_000;
      for (;;) {
        const now = await storedVariantKeys(lostVariants);
        if (now.missing.length === 0 && now.recorded.length > 0) break;
        if (Date.now() > deadline) throw new Error(`variants of ${lostVariants} not made again: ${JSON.stringify(now)}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    } finally {
      await storage.putBytes(changedKey, originalOfChanged, { contentType: "image/jpeg" });
    }
    const after = await runContactSheet(["verify", "--orphan-age-minutes", "0"], env);
    for (const needle of [lostVariants, changed, orphanKey]) expect(after.stdout, after.output).not.toContain(needle);
  }, 180_000);

  it("refuses clearly when the database is out of reach", async () => {
    const result = await runContactSheet(["verify"], { ...appEnv, DATABASE_URL: "postgres://nobody@127.0.0.1:9/none" });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("contact-sheet: The database is not reachable");
  }, 60_000);
});
