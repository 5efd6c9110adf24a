import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createUser, screenshot, signIn, toast } from "./helpers";

// A 2 s clip made here by the system's ffmpeg, kept private to its uploader so the public gallery
// other specs read is unchanged.
function makeClip(): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cs-e2e-clip-")), "waves.mp4");
  execFileSync("ffmpeg", [
    "-hide_banner", "-loglevel", "error", "-y",
    "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=15:duration=2", "-f", "lavfi", "-i", "sine=frequency=330:duration=2",
    "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-metadata", "location=+48.8584+002.2945/", file,
  ]);
  return file;
}

test("an editor uploads a clip through the page, finds it in the grid marked as a video, and plays it in the viewer with Space", async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const editor = await createUser(page.context().browser()!, "editor");
  const clip = makeClip();
  let id = "";

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
  });
});
