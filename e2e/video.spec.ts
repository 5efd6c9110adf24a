import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { createUser, E2E_BASE_URL, screenshot, signIn, toast } from "./helpers";

// A 2 s clip made here by the system's ffmpeg, kept private to its uploader so the public gallery
// other specs read is unchanged. Then a Live Photo of the same uploader: a corpus photo given a real
// iPhone Live Photo's maker notes and a content identifier (ExifTool), and a MOV made from it with
// the same identifier.
function makeClip(): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cs-e2e-clip-")), "waves.mp4");
  execFileSync("ffmpeg", [
    "-hide_banner", "-loglevel", "error", "-y",
    "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=15:duration=2", "-f", "lavfi", "-i", "sine=frequency=330:duration=2",
    "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-metadata", "location=+48.8584+002.2945/", file,
  ]);
  return file;
}

const EXIFTOOL = path.resolve("node_modules/exiftool-vendored.pl/bin/exiftool");
const IPHONE_LIVE_STILL = path.resolve("../shared/corpus/exif-samples/heic/IMG_5195.HEIC");

function makeLivePhoto(): { still: Buffer; mov: Buffer } {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "cs-e2e-live-"));
  const still = path.join(folder, "IMG_0100.JPG");
  const mov = path.join(folder, "IMG_0100.MOV");
  const identifier = `E2E${Date.now()}-LIVE`;
  execFileSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-i", path.resolve("../shared/corpus/exif-samples/jpg/Canon_40D.jpg"), "-vf", "scale=800:-2", "-q:v", "4", still]);
  execFileSync(EXIFTOOL, ["-q", "-overwrite_original", "-tagsFromFile", IPHONE_LIVE_STILL, "-Make", "-Model", "-MakerNotes", still]);
  execFileSync(EXIFTOOL, ["-q", "-overwrite_original", `-Apple:ContentIdentifier=${identifier}`, still]);
  execFileSync("ffmpeg", [
    "-hide_banner", "-loglevel", "error", "-y", "-loop", "1", "-t", "2", "-i", still,
    "-vf", "scale=400:-2,hue=h=90*t,format=yuv420p", "-r", "15", "-c:v", "libx264",
    "-metadata", `com.apple.quicktime.content.identifier=${identifier}`, "-movflags", "+use_metadata_tags", mov,
  ]);
  return { still: fs.readFileSync(still), mov: fs.readFileSync(mov) };
}

test("an editor uploads a clip through the page, finds it in the grid marked as a video, and plays it in the viewer with Space", async ({ page }, testInfo) => {
  test.setTimeout(330_000);
  const editor = await createUser(page.context().browser()!, "editor");
  const clip = makeClip();
  let id = "";
  let liveId = "";

  await test.step("the clip is uploaded with Uppy and becomes ready", async () => {
    // Signed in on the gallery, then to the uploader: its first render (Uppy) took over the sign-in
    // helper's 5 s here on a loaded machine, twice in three runs.
    await signIn(page, editor);
    await page.goto("/admin/upload");
    await expect(page.getByText(/Videos too: MP4, MOV/)).toBeVisible();
    await page.locator("input.uppy-Dashboard-input").first().setInputFiles([clip]);
    await page.getByRole("button", { name: /^Upload 1 file/ }).click();
    await expect(toast(page, "Uploaded waves.mp4")).toBeVisible({ timeout: 60_000 });
    const item = page.getByRole("region", { name: "Uploaded photos" }).getByRole("listitem").filter({ hasText: "waves.mp4" });
    await expect(item).toHaveAttribute("data-status", "ready", { timeout: 120_000 });
    id = (await item.getAttribute("data-photo-id")) ?? "";
    // The playable copy is a later job: wait until the API names it.
    await expect
      .poll(async () => ((await (await page.request.get(`/api/photos/${id}`)).json()) as { photo: { video: { playableUrl: string | null } } }).photo.video.playableUrl, { timeout: 120_000 })
      .toMatch(/^\/media\/.+\.mp4$/);
  });

  await test.step("the grid shows its play mark and length; its name says it is a video", async () => {
    for (const [width, height] of [[1440, 900], [390, 844]] as const) {
      await page.setViewportSize({ width, height });
      for (const colorScheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme });
        await page.goto("/");
        const tile = page.getByRole("link", { name: /, video, 0:02/ });
        await expect(tile).toBeVisible();
        await expect(tile.locator(".grid-video-badge")).toHaveText("0:02");
        await screenshot(page, `video-grid-${width}-${colorScheme}`);
      }
    }
  });

  await test.step("the viewer plays it: no autoplay, Space plays and pauses", async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.emulateMedia({ colorScheme: "light" });
    await page.goto(`/p/${id}`);
    await page.locator(".photo-stage-button").click();
    const video = page.getByTestId("viewer-video");
    await expect(video).toBeVisible();
    expect(await video.evaluate((element: HTMLVideoElement) => ({ paused: element.paused, autoplay: element.autoplay, controls: element.controls }))).toEqual({
      paused: true,
      autoplay: false,
      controls: true,
    });
    await page.keyboard.press(" ");
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.paused)).toBe(false);
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeGreaterThan(0);
    await page.keyboard.press(" ");
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.paused)).toBe(true);
    await screenshot(page, "video-viewer-1440");
    await testInfo.attach("viewer", { body: await page.screenshot(), contentType: "image/png" });
    await page.keyboard.press("Escape");
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.locator(".photo-stage-button").click();
    await expect(video).toBeVisible();
    await screenshot(page, "video-viewer-390-dark");
    await page.keyboard.press("Escape");
  });

  await test.step("a Live Photo (still, then its MOV) is one tile marked LIVE; its clip plays on hover and while the badge is held", async () => {
    const { still, mov } = makeLivePhoto();
    const upload = async (name: string, buffer: Buffer) => {
      const response = await page.request.post("/api/upload", { multipart: { file: { name, mimeType: "application/octet-stream", buffer } } });
      expect(response.status()).toBe(201);
      return ((await response.json()) as { photos: Array<{ id: string }> }).photos[0].id;
    };
    liveId = await upload("IMG_0100.JPG", still);
    expect(await upload("IMG_0100.MOV", mov)).toBe(liveId);
    await expect
      .poll(async () => ((await (await page.request.get(`/api/photos/${liveId}`)).json()) as { photo: { motionUrl: string | null } }).photo.motionUrl, { timeout: 120_000 })
      .toMatch(/^\/media\/.+\/motion-[0-9a-f]+\.mp4$/);

    // Two of the four size and theme pairs (CI time is short; the viewer is dark in both themes):
    // the tile's badge, the viewer's badge, axe over the viewer, and a picture of each.
    for (const [width, height, colorScheme] of [[1440, 900, "light"], [390, 844, "dark"]] as const) {
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme });
      await page.goto("/");
      const tile = page.getByRole("link", { name: /, Live Photo/ });
      await expect(tile.locator(".grid-video-badge")).toHaveText("LIVE");
      await screenshot(page, `live-grid-${width}-${colorScheme}`);
      await page.goto(`/p/${liveId}`);
      await page.locator(".photo-stage-button").click();
      const badge = page.getByTestId("viewer-live-badge");
      await expect(badge).toBeVisible();
      await expect(badge).toHaveAccessibleName("Play the Live Photo");
      await page.mouse.move(0, height - 1);
      const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).include(".pswp").analyze();
      expect(axe.violations.map((violation) => violation.id), `${width} ${colorScheme}`).toEqual([]);
      // The viewer as the reader sees it (a full-page picture would add the page under it).
      await page.screenshot({ path: `test-results/screens/live-viewer-${width}-${colorScheme}.png` });
      await page.keyboard.press("Escape");
      // Closing goes back in history to the photo's page: only then is the next address ours.
      await expect(page.locator(".pswp")).toHaveCount(0);
      await expect(page.locator(".photo-stage-button")).toBeFocused();
    }

    // Still on the photo's page, from the viewer just closed.
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.locator(".photo-stage-button").click();
    const clip = page.getByTestId("viewer-live-video");
    // Resting the mouse on the photo plays the clip, muted; moving off shows the still again.
    await page.locator(".pswp__img").last().hover();
    await expect.poll(() => clip.evaluate((element: HTMLVideoElement) => ({ playing: !element.paused && element.currentTime > 0, muted: element.muted }))).toEqual({ playing: true, muted: true });
    // Laid over the still exactly, so the picture moves in place (once the viewer's opening zoom has settled).
    const offset = async () => {
      const [clipBox, stillBox] = [await clip.boundingBox(), await page.locator(".pswp__img").last().boundingBox()];
      return Math.max(...(["x", "y", "width", "height"] as const).map((side) => Math.abs(clipBox![side] - stillBox![side])));
    };
    await expect.poll(offset, { timeout: 5_000 }).toBeLessThan(2);
    await page.screenshot({ path: "test-results/screens/live-viewer-playing-1440.png" });
    await page.mouse.move(5, 450);
    await expect.poll(() => clip.evaluate((element: HTMLVideoElement) => element.paused)).toBe(true);
    // Holding the badge plays it (a finger on a phone; the mouse button here); letting go stops it.
    const badge = page.getByTestId("viewer-live-badge");
    const box = (await badge.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await expect(badge).toHaveAttribute("aria-pressed", "true");
    await expect.poll(() => clip.evaluate((element: HTMLVideoElement) => element.paused)).toBe(false);
    await page.mouse.up();
    await page.mouse.move(5, 450);
    await expect(badge).toHaveAttribute("aria-pressed", "false");
  });

  await test.step("on a share link, a visitor in a fresh browser plays the clip the same way, and learns no place", async () => {
    const created = await page.request.post("/api/shares", { headers: { Origin: E2E_BASE_URL }, data: { photoIds: [id, liveId], title: "Waves" } });
    expect(created.status()).toBe(201);
    const shareUrl = ((await created.json()) as { share: { url: string } }).share.url;
    const visitorContext = await page.context().browser()!.newContext({ viewport: { width: 1440, height: 900 } });
    const visitor = await visitorContext.newPage();
    try {
      // A link without a password lets the browser in by itself (the "View photos" form posts as it shows).
      await visitor.goto(new URL(shareUrl).pathname);
      const tile = visitor.getByRole("link", { name: /, video, 0:02/ });
      await expect(tile.locator(".grid-video-badge")).toHaveText("0:02", { timeout: 30_000 });
      await expect(visitor.getByRole("link", { name: /, Live Photo/ }).locator(".grid-video-badge")).toHaveText("LIVE");
      await screenshot(visitor, "video-share-grid-1440-light");
      await visitor.setViewportSize({ width: 390, height: 844 });
      await visitor.emulateMedia({ colorScheme: "dark" });
      await screenshot(visitor, "video-share-grid-390-dark");
      await tile.click();
      await expect(visitor.locator(".photo-stage-button")).toBeVisible();
      await screenshot(visitor, "video-share-photo-390-dark");
      await visitor.setViewportSize({ width: 1440, height: 900 });
      await visitor.emulateMedia({ colorScheme: "light" });
      await visitor.locator(".photo-stage-button").click();
      const video = visitor.getByTestId("viewer-video");
      await expect(video).toBeVisible();
      // The link's own copy, under its path: the visitor's grant plays it, no autoplay.
      expect(await video.evaluate((element: HTMLVideoElement) => ({ src: new URL(element.src).pathname.split("/media/")[0], paused: element.paused }))).toEqual({
        src: new URL(shareUrl).pathname,
        paused: true,
      });
      await visitor.keyboard.press(" ");
      await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeGreaterThan(0);
      await visitor.keyboard.press(" ");
      await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.paused)).toBe(true);
      await visitor.screenshot({ path: "test-results/screens/video-share-viewer-1440.png" });
      await visitor.keyboard.press("Escape");
      await expect(visitor.locator(".pswp")).toHaveCount(0);
      // The clip was filmed at 48.8584, 2.2945: nothing of it on the page, nor its map link.
      expect(await visitor.content()).not.toMatch(/48\.85|2\.294|openstreetmap/i);
      await visitor.setViewportSize({ width: 390, height: 844 });
      await visitor.emulateMedia({ colorScheme: "dark" });
      await visitor.locator(".photo-stage-button").click();
      await expect(video).toBeVisible();
      await visitor.screenshot({ path: "test-results/screens/video-share-viewer-390-dark.png" });
    } finally {
      await visitorContext.close();
    }
  });
});
