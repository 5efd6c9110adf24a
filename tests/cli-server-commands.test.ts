// The server-side commands against the test server's own database, as an operator runs them on the
// server: `contact-sheet users …` through the users service, `contact-sheet reprocess` queueing work
// the running site's worker does, and both refusing clearly when there is no database to reach.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { motionPhotoJpeg } from "@/src/images/motion/motion-photo-test-files";
import { insertPhoto } from "@/src/photos/photos.repository";
import { createStorage } from "@/src/storage/create-storage";
import { makeLiveMov } from "./helpers/live-photos";
import { listStoredKeys, uploadCorpusFile, uploadFiles, type UploadedPhoto, waitForProcessing } from "./helpers/photos";
import { photoRow } from "./helpers/search-library";
import { openTestDatabase } from "./helpers/test-database";
import { signedInAs, TestClient } from "./helpers/test-client";
import { TEST_SECRET } from "./setup/global-setup";

const COMMAND = path.resolve(import.meta.dirname, "../bin/contact-sheet.mjs");

function serverEnvironment(): Record<string, string> {
  const databaseUrl = inject("databaseUrl");
  return { DATA_DIR: inject("dataDirectory"), NEXTAUTH_SECRET: TEST_SECRET, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
}

function runCommand(args: string[], options: { env?: Record<string, string>; stdin?: string } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [COMMAND, ...args], {
      env: { PATH: process.env.PATH ?? "", HOME: os.tmpdir(), NODE_ENV: "production", LOG_LEVEL: "warn", ...(options.env ?? serverEnvironment()) },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.end(options.stdin ?? "");
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`contact-sheet ${args.join(" ")} still running after 90 s:\n${stdout}\n${stderr}`));
    }, 90_000);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe("contact-sheet users", () => {
  it("creates, lists, changes the role of, disables and resets the password of an account, audited as the command line", async () => {
    const email = `cli-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.test`;
    const created = await runCommand(["users", "create", "--email", email.toUpperCase(), "--name", "Cli Person", "--role", "viewer", "--password-stdin"], { stdin: "first-password-123\n" });
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain(`Created ${email}  Cli Person  viewer`);
    expect(created.stdout).not.toContain("Password:");
    expect((await new TestClient().signIn(email, "first-password-123")).status).toBe(200);

    const setRole = await runCommand(["users", "set-role", email, "editor"]);
    expect(setRole.code, setRole.stderr).toBe(0);
    const reset = await runCommand(["users", "reset-password", email]);
    expect(reset.code, reset.stderr).toBe(0);
    const newPassword = /^Password: (\S+)$/m.exec(reset.stdout)?.[1] ?? "";
    expect(newPassword.length).toBeGreaterThanOrEqual(20);
    const signedIn = new TestClient();
    await signedIn.signIn(email, newPassword);
    expect(signedIn.sessionToken).toBeDefined();

    const disabled = await runCommand(["users", "disable", email]);
    expect(disabled.code, disabled.stderr).toBe(0);
    const list = await runCommand(["users", "list", "--json"]);
    expect(list.code, list.stderr).toBe(0);
    const listed = list.stdout.trim().split("\n").map((line) => JSON.parse(line) as { email: string; role: string; isDisabled: boolean });
    expect(listed.find((user) => user.email === email)).toMatchObject({ role: "editor", isDisabled: true });
    const refused = new TestClient();
    await refused.signIn(email, newPassword);
    expect(refused.sessionToken).toBeUndefined();

    const db = openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
    try {
      const { id: userId } = await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
      // The changes to the account (its sign-ins are audited too, as its own).
      const actions = await db.selectFrom("audit_log").select(["action", "actor_id"]).where("target_id", "=", userId).where("action", "like", "user.%").orderBy("created_at").execute();
      expect(actions).toEqual([
        { action: "user.create", actor_id: "command-line" },
        { action: "user.update", actor_id: "command-line" },
        { action: "user.reset-password", actor_id: "command-line" },
        { action: "user.update", actor_id: "command-line" },
      ]);
    } finally {
      await db.destroy();
    }
  });

  it("refuses a password the site would refuse and an unknown account in one sentence, with a non-zero exit code", async () => {
    const unknown = await runCommand(["users", "disable", "nobody@example.test"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No user has the e-mail or id nobody@example.test.");
    const shortPassword = await runCommand(["users", "reset-password", "nobody@example.test", "--password-stdin"], { stdin: "short\n" });
    expect(shortPassword.code).toBe(2);
    expect(shortPassword.stderr).toContain("The password is refused");
  });

  it("refuses clearly when there is no database to reach", async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "cs-no-db-"));
    try {
      const missing = await runCommand(["users", "list"], { env: { DATA_DIR: path.join(folder, "nothing"), NEXTAUTH_SECRET: TEST_SECRET } });
      expect(missing.code).toBe(1);
      expect(missing.stderr).toMatch(/^contact-sheet: There is no database: SQLite at .* does not exist\./);
      expect(fs.existsSync(path.join(folder, "nothing"))).toBe(false);
      const down = await runCommand(["reprocess", "--failed"], { env: { DATA_DIR: folder, NEXTAUTH_SECRET: TEST_SECRET, DATABASE_URL: "postgres://postgres:hidden@127.0.0.1:9/app" } });
      expect(down.code).toBe(1);
      expect(down.stderr).toContain("The database is not reachable (PostgreSQL at postgres://postgres@127.0.0.1:9/app)");
      expect(down.stderr).not.toContain("hidden");
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe("contact-sheet reprocess", () => {
  /** Waits until none of these photos' jobs is queued or running. */
  async function waitForJobs(db: ReturnType<typeof openTestDatabase>, photoIds: string[]): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const open = await db.selectFrom("jobs").select("id").where("photo_id", "in", photoIds).where("status", "in", ["queued", "running"]).execute();
      if (open.length === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error("The photos' jobs did not end within 60 s");
  }

  it("makes ready photos' sizes anew through the site's worker, a motion photo's clip cut out again and its playable copy too (the old files deleted), and follows them; an unknown id is told and fails the run", async () => {
    const { client } = await signedInAs("editor");
    const photo = await uploadCorpusFile(client, "exif-samples/jpg/Pentax_K10D.jpg");
    // A motion photo whose appended clip is a real (small) video, so its playable copy can be made.
    // (A Live Photo's MOV is a motion clip alike: the same job, queued the same way.)
    const clip = Buffer.from(await makeLiveMov("00000000-0000-4000-8000-000000000000"));
    const [motion] = ((await (await uploadFiles(client, [{ bytes: new Uint8Array((await motionPhotoJpeg({ form: "attributes", clip })).bytes), name: "PXL_0009.MP.jpg" }])).json()) as { photos: UploadedPhoto[] }).photos;
    const before = await waitForProcessing(client, photo.id);
    expect(before.status).toBe("ready");

    const db = openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
    const playableOf = async () => (await db.selectFrom("photos").select("motion_playable_key").where("id", "=", motion.id).executeTakeFirstOrThrow()).motion_playable_key;
    const clipOf = async () => (await db.selectFrom("photos").select("motion_clip_key").where("id", "=", motion.id).executeTakeFirstOrThrow()).motion_clip_key;
    const storedCopies = async () => (await listStoredKeys(inject("storageConfig"))).filter((key) => key.startsWith("variants/") && key.includes(`/${motion.id}/motion-`));
    const storedClips = async () => (await listStoredKeys(inject("storageConfig"))).filter((key) => key.startsWith("companions/") && key.includes(`/${motion.id}/motion-`));
    try {
      await waitForJobs(db, [motion.id]);
      // Its copy as an earlier ffmpeg made it, under another name.
      const copy = await playableOf();
      expect(copy).toMatch(/\/motion-[0-9a-f]+\.mp4$/);
      const storage = createStorage(inject("storageConfig"));
      const olderCopy = copy!.replace(/motion-[0-9a-f]+\.mp4$/, "motion-0000older.mp4");
      await storage.putBytes(olderCopy, new TextEncoder().encode("an older copy"), { contentType: "video/mp4" });
      await storage.delete(copy!);
      await db.updateTable("photos").set({ motion_playable_key: olderCopy }).where("id", "=", motion.id).execute();
      // Its clip as an earlier locator cut it (with the trailer Samsung writes after the MP4), under another name.
      const firstClip = (await clipOf())!;
      const olderClip = firstClip.replace(/motion-[^/]+\.mp4$/, "motion-older-cut.mp4");
      const olderBytes = Buffer.concat([clip, Buffer.from("SEFT trailer")]);
      await storage.putBytes(olderClip, olderBytes, { contentType: "video/mp4" });
      await storage.delete(firstClip);
      await db.updateTable("photos").set({ motion_clip_key: olderClip, motion_clip_size: olderBytes.length }).where("id", "=", motion.id).execute();

      const run = await runCommand(["reprocess", photo.id, motion.id, "no-such-photo"]);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(run.stdout).toContain("skipped no-such-photo: no such photo");
      expect(run.stdout).toContain("Queued 2 photos: 0 failed ones processed again, 2 ready ones' sizes made anew.");
      expect(run.stdout).toContain("Their motion clips' playable copies made anew: 1.");
      expect(run.stdout).toContain("Of those, motion photos whose clip is cut out of the original again first: 1.");
      expect(run.stdout).toMatch(/processing: 2\/2 done, 0 failed, 0 waiting/);
      const after = await waitForProcessing(client, photo.id);
      expect(after.status).toBe("ready");
      // Made anew: variant URLs are named by content and the render swaps in new rows (the same
      // pixels may give the same names, so the job itself is what is checked).
      const jobs = await db.selectFrom("jobs").select(["kind", "status"]).where("photo_id", "=", photo.id).where("kind", "=", "photo.render").execute();
      expect(jobs).toEqual([{ kind: "photo.render", status: "done" }]);
      // Followed to the end: the clip's copy is made by the time the command says it is done, and
      // the only one stored is the one the photo names (the older one's file is gone).
      const remade = await playableOf();
      expect(remade).toMatch(/\/motion-[0-9a-f]+\.mp4$/);
      expect(await storedCopies()).toEqual([remade]);
      const detail = (await (await client.request(`/api/photos/${motion.id}`)).json()) as { photo: { motionUrl: string } };
      const served = await client.request(detail.photo.motionUrl);
      expect([served.status, served.headers.get("content-type")]).toEqual([200, "video/mp4"]);
      // The clip cut out anew is exactly the MP4 in the original, and the older cut's file is gone.
      const recut = await clipOf();
      expect(recut).not.toBe(olderClip);
      expect(await storedClips()).toEqual([recut]);
      const clipServed = await client.request(`/api/photos/${motion.id}/motion`);
      expect(Buffer.from(await clipServed.arrayBuffer()).equals(clip)).toBe(true);
    } finally {
      await db.destroy();
    }
  });
});

describe("contact-sheet reprocess --places", () => {
  it("names the places of photos with coordinates and none now (issue 31)", async () => {
    const { user } = await signedInAs("editor");
    const db = openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
    try {
      // A photo processed before places were stored: the corpus's Arezzo coordinates, no place.
      const id = `cli-places-${Date.now()}`;
      await insertPhoto(db, { ...photoRow(id, user.id, { title: "Before places", sortAt: "2008-10-22T16:28:39.000Z" }), gps_latitude: 43.46745, gps_longitude: 11.88513 });
      const run = await runCommand(["reprocess", "--places"]);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^places: \d+ photos looked at, \d+ named$/m);
      expect(run.stdout).toMatch(/Named the places of \d+ photos?/);
      const row = await db.selectFrom("photos").select(["place_city", "place_region", "place_country_code", "place_source"]).where("id", "=", id).executeTakeFirstOrThrow();
      expect(row).toEqual({ place_city: "Arezzo", place_region: "Tuscany", place_country_code: "IT", place_source: "automatic" });
    } finally {
      await db.destroy();
    }
  });
});
