import fs from "node:fs";
import path from "node:path";
import { type APIRequestContext, expect, type Locator, type Page, test } from "@playwright/test";
import { E2E_BASE_URL, newAdminContext, screenshot, toast } from "./helpers";

// The photo page and its full-screen viewer, by keyboard alone: from the gallery to a photo, into
// the viewer, zoom, to the next photo, out again with focus back where it was, and Back.

const CORPUS = path.resolve("../shared/corpus");
const FILES = ["orientation/Landscape_1.jpg", "orientation/Portrait_1.jpg", "exif-samples/jpg/gps/DSCN0010.jpg"];
const ORIGIN = { Origin: E2E_BASE_URL };

async function uploadPublicPhoto(request: APIRequestContext, file: string): Promise<string> {
  const upload = await request.post("/api/upload", {
    multipart: { file: { name: path.basename(file), mimeType: "image/jpeg", buffer: fs.readFileSync(path.join(CORPUS, file)) } },
    headers: ORIGIN,
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const [photo] = ((await upload.json()) as { photos: Array<{ id: string }> }).photos;
  await expect
    .poll(async () => ((await (await request.get(`/api/photos/${photo.id}`)).json()) as { photo: { status: string } }).photo.status, { timeout: 60_000 })
    .toBe("ready");
  const patch = await request.patch(`/api/photos/${photo.id}`, { data: { visibility: "public" }, headers: ORIGIN });
  expect(patch.status(), await patch.text()).toBe(200);
  return photo.id;
}

/** Presses Tab until `target` has the focus (a keyboard reader's way there), or fails. */
async function tabTo(page: Page, target: Locator, maxPresses = 80): Promise<void> {
  for (let presses = 0; presses < maxPresses; presses += 1) {
    await page.keyboard.press("Tab");
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false)) return;
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

test("a keyboard reader opens a photo, views it full screen, zooms, moves on, closes and goes back", async ({ browser }) => {
  test.setTimeout(180_000);
  const admin = await newAdminContext(browser);
  const ids: string[] = [];
  const visitorContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await visitorContext.newPage();
  try {
    for (const file of FILES) ids.push(await uploadPublicPhoto(admin.request, file));

    await page.goto("/");
    // The first of ours in the gallery's order: our other two are older, so it has a next photo.
    const ours = page.locator(ids.map((id) => `a[href="/p/${id}"]`).join(", "));
    await tabTo(page, ours.first());
    const openedHref = await page.evaluate(() => (document.activeElement as HTMLAnchorElement).getAttribute("href"));
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(`${E2E_BASE_URL}${openedHref}`);
    await expect(page.getByTestId("photo-image")).toBeVisible();
    const nextHref = await page.locator('a[rel="next"]').getAttribute("href");
    expect(nextHref).toMatch(/^\/p\//);

    const opener = page.locator(".photo-stage-button");
    await tabTo(page, opener);
    await page.keyboard.press("Enter");
    const viewer = page.getByRole("dialog", { name: "Photo viewer" });
    await expect(viewer).toBeVisible();
    await expect(viewer.locator(".pswp__item[aria-hidden='false'] img.pswp__img:not(.pswp__img--placeholder)")).toBeVisible();

    // Z zooms (PhotoSwipe's key); the zoomed photo asks for a larger size than the fitted one.
    const shownImage = viewer.locator(".pswp__item[aria-hidden='false'] img.pswp__img:not(.pswp__img--placeholder)");
    const fittedSizes = Number.parseInt((await shownImage.getAttribute("sizes")) ?? "0", 10);
    await page.keyboard.press("z");
    await expect(page.locator(".pswp")).toHaveClass(/pswp--zoomed-in/);
    await expect.poll(async () => Number.parseInt((await shownImage.getAttribute("sizes")) ?? "0", 10)).toBeGreaterThan(fittedSizes);
    await screenshot(page, "photo-viewer-zoomed");

    await page.keyboard.press("ArrowRight");
    await expect(page).toHaveURL(`${E2E_BASE_URL}${nextHref}`);
    await screenshot(page, "photo-viewer-next");

    await page.keyboard.press("Escape");
    await expect(viewer).toBeHidden();
    await expect(page).toHaveURL(`${E2E_BASE_URL}${nextHref}`);
    await expect(opener).toBeFocused();
    // The page shows the photo the viewer closed on: its own previous link leads back to the first.
    await expect(page.locator('a[rel="prev"]')).toHaveAttribute("href", openedHref ?? "");

    // Back while the viewer is open closes it and stays on the photo.
    await page.keyboard.press("Enter");
    await expect(viewer).toBeVisible();
    await page.goBack({ waitUntil: "commit" });
    await expect(viewer).toBeHidden();
    await expect(page).toHaveURL(`${E2E_BASE_URL}${nextHref}`);
    await expect(opener).toBeFocused();

    // And Back after that leaves the photo for the gallery, the page before it.
    await page.goBack({ waitUntil: "commit" });
    await expect(page).toHaveURL(`${E2E_BASE_URL}/`);

    // The owner deletes a photo from its page, after confirming, and lands on the gallery.
    const ownerPage = await admin.newPage();
    await ownerPage.goto(`/p/${ids[0]}`);
    await tabTo(ownerPage, ownerPage.getByRole("button", { name: "Delete" }));
    await ownerPage.keyboard.press("Enter");
    const confirm = ownerPage.getByRole("dialog", { name: "Delete this photo?" });
    await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
    await tabTo(ownerPage, confirm.getByRole("button", { name: "Delete photo" }));
    await ownerPage.keyboard.press("Enter");
    await expect(ownerPage).toHaveURL(`${E2E_BASE_URL}/`);
    await expect(toast(ownerPage, "Photo deleted")).toBeVisible();
    expect((await admin.request.get(`/api/photos/${ids[0]}`)).status()).toBe(404);
  } finally {
    await visitorContext.close();
    // The gallery is shared by every spec: public photos left behind would show up in theirs.
    for (const id of ids) await admin.request.delete(`/api/photos/${id}`, { headers: ORIGIN });
    await admin.close();
  }
});
