import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, type Browser, expect, type Locator, type Page, test } from "@playwright/test";
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

// Uploaded once for every test here (each upload waits for its processing).
const ids: string[] = [];

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  const admin = await newAdminContext(browser);
  try {
    // Again after a failed test (a new worker): uploading the same file answers the same photo.
    ids.length = 0;
    for (const file of FILES) ids.push(await uploadPublicPhoto(admin.request, file));
  } finally {
    await admin.close();
  }
});

test.afterAll(async ({ browser }) => {
  // The gallery is shared by every spec: public photos left behind would show up in theirs.
  const admin = await newAdminContext(browser);
  for (const id of ids) await admin.request.delete(`/api/photos/${id}`, { headers: ORIGIN });
  await admin.close();
});

test("a keyboard reader opens a photo, views it full screen, zooms, moves on, closes and goes back", async ({ browser }) => {
  test.setTimeout(180_000);
  const admin = await newAdminContext(browser);
  const visitorContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await visitorContext.newPage();
  try {

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
    await admin.close();
  }
});

// The viewer around the photo (issue 27): a black backdrop in both themes, a counter, the caption
// as text, the info panel under the metadata policy, and a slideshow that pauses.

const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
const VIEWER_ALBUM = { title: "Viewer walk", slug: "viewer-walk" };
// User text that must stay text: the caption line shows it as written, never as markup.
const HOSTILE_TITLE = "Harbour <b>at dusk</b>";
const HOSTILE_CAPTION = 'From the <img src=x onerror="document.title=1"> north pier & the lights';

/** A public album of the GPS photo (titled, captioned, location hidden) then the portrait: "1 / 2", "2 / 2". */
async function seedViewerAlbum(browser: Browser): Promise<{ gpsId: string; portraitId: string }> {
  const [, portraitId, gpsId] = ids;
  const admin = await newAdminContext(browser);
  try {
    const patched = await admin.request.patch(`/api/photos/${gpsId}`, { headers: ORIGIN, data: { title: HOSTILE_TITLE, caption: HOSTILE_CAPTION, showLocation: false } });
    expect(patched.status(), await patched.text()).toBe(200);
    let albumId: string;
    const created = await admin.request.post("/api/albums", { headers: ORIGIN, data: { ...VIEWER_ALBUM, description: "", visibility: "public", parentId: null } });
    if (created.status() === 201) albumId = ((await created.json()) as { album: { id: string } }).album.id;
    else {
      expect(created.status(), await created.text()).toBe(409);
      const { albums } = (await (await admin.request.get("/api/albums")).json()) as { albums: Array<{ id: string; slug: string }> };
      albumId = albums.find((album) => album.slug === VIEWER_ALBUM.slug)!.id;
    }
    const added = await admin.request.post(`/api/albums/${albumId}/photos`, { headers: ORIGIN, data: { photoIds: [gpsId, portraitId] } });
    expect(added.status(), await added.text()).toBe(200);
    return { gpsId, portraitId };
  } finally {
    await admin.close();
  }
}

/** Opens the viewer from the photo page by keyboard (Tab to the photo, Enter) and answers it. */
async function openViewer(page: Page, path: string): Promise<Locator> {
  await page.goto(path);
  await tabTo(page, page.locator(".photo-stage-button"));
  await page.keyboard.press("Enter");
  const viewer = page.getByRole("dialog", { name: "Photo viewer" });
  await expect(viewer.locator(".pswp__item[aria-hidden='false'] img.pswp__img:not(.pswp__img--placeholder)")).toBeVisible();
  return viewer;
}

test("the viewer shows a black backdrop, the counter and caption, the details the policy allows, and a slideshow that pauses", async ({ browser }) => {
  test.setTimeout(180_000);
  const { gpsId } = await seedViewerAlbum(browser);
  const albumPath = `/p/${gpsId}?album=${VIEWER_ALBUM.slug}`;
  const visitorContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const owner = await newAdminContext(browser);
  try {
    const page = await visitorContext.newPage();
    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme });
      const viewer = await openViewer(page, albumPath);
      expect(await page.locator(".pswp__bg").evaluate((element) => getComputedStyle(element).backgroundColor), theme).toBe("rgb(0, 0, 0)");
      await page.keyboard.press("Escape");
      await expect(viewer).toBeHidden();
    }

    // The counter, seen and heard; the caption exactly as written, as text.
    await page.emulateMedia({ colorScheme: "light" });
    const viewer = await openViewer(page, albumPath);
    const counter = viewer.getByRole("status");
    await expect(counter).toHaveText(/^1 \/ 2\s*Photo 1 of 2$/);
    await expect(viewer.locator(".viewer-caption-title")).toHaveText(HOSTILE_TITLE);
    await expect(viewer.locator(".viewer-caption-text")).toHaveText(HOSTILE_CAPTION);
    await expect(viewer.locator(".viewer-caption b, .viewer-caption img")).toHaveCount(0);

    // The info panel, by keyboard: the photo page's EXIF card, and no place for a visitor (the owner hides it).
    const infoButton = viewer.getByRole("button", { name: "Photo details (I)" });
    await tabTo(page, infoButton, 12);
    await page.keyboard.press("Enter");
    await expect(infoButton).toHaveAttribute("aria-expanded", "true");
    const panel = viewer.getByRole("region", { name: "Details" });
    await expect(panel.getByTestId("exif-summary")).toBeVisible();
    await expect(panel.getByTestId("exif-summary")).toContainText("COOLPIX P6000");
    await expect(panel.locator(".photo-where")).toHaveCount(0);
    await page.keyboard.press("i");
    await expect(panel).toBeHidden();

    // The slideshow: K plays (the pause control shows), Space pauses and nothing moves, a move of the
    // reader's own pauses it, and played again it moves on by itself and stops at the end.
    const playButton = viewer.locator(".pswp__button--viewer-slideshow");
    await expect(playButton).toHaveAccessibleName("Play slideshow (K)");
    // Space belongs to a focused button; on the viewer itself it is the slideshow's.
    await viewer.focus();
    await page.keyboard.press("k");
    await expect(playButton).toHaveAccessibleName("Pause slideshow (K)");
    await expect(playButton).toBeVisible();
    await expect(viewer.locator(".viewer-progress")).toBeVisible();
    await page.keyboard.press("Space");
    await expect(playButton).toHaveAccessibleName("Play slideshow (K)");
    await page.waitForTimeout(6_000);
    await expect(counter).toContainText("1 / 2");
    await playButton.click();
    await expect(playButton).toHaveAccessibleName("Pause slideshow (K)");
    await page.keyboard.press("ArrowRight");
    await expect(counter).toContainText("2 / 2");
    await expect(playButton).toHaveAccessibleName("Play slideshow (K)");
    await page.keyboard.press("ArrowLeft");
    await expect(counter).toContainText("1 / 2");
    await page.keyboard.press("k");
    await expect(counter).toContainText("2 / 2", { timeout: 8_000 });
    await expect(playButton).toHaveAccessibleName("Play slideshow (K)", { timeout: 8_000 });
    await page.keyboard.press("Escape");
    await expect(viewer).toBeHidden();

    // Less motion: the show still plays, without the filling progress line.
    await page.emulateMedia({ reducedMotion: "reduce" });
    const calmViewer = await openViewer(page, albumPath);
    await page.keyboard.press("k");
    await expect(calmViewer.locator(".pswp__button--viewer-slideshow")).toHaveAccessibleName("Pause slideshow (K)");
    await expect(calmViewer.locator(".viewer-progress")).toBeHidden();
    await page.keyboard.press("k");
    await page.keyboard.press("Escape");

    // The owner's panel has the place the visitor's has not.
    const ownerPage = await owner.newPage();
    await ownerPage.setViewportSize({ width: 1440, height: 900 });
    const ownerViewer = await openViewer(ownerPage, albumPath);
    await ownerPage.keyboard.press("i");
    const ownerPanel = ownerViewer.getByRole("region", { name: "Details" });
    await expect(ownerPanel.locator(".photo-where")).toBeVisible();
    await expect(ownerPanel.getByTestId("exif-summary")).toBeVisible();

    // At 390 and 1440 px, light and dark, with the panel open: no axe violation, and a picture to look at.
    for (const size of [{ width: 390, height: 844 }, { width: 1440, height: 900 }]) {
      await ownerPage.setViewportSize(size);
      for (const theme of ["light", "dark"] as const) {
        await ownerPage.emulateMedia({ colorScheme: theme });
        await expect(ownerPanel.locator(".photo-where")).toBeVisible();
        const results = await new AxeBuilder({ page: ownerPage }).withTags(WCAG_TAGS).include(".pswp").analyze();
        expect(results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(" | ")}`), `${size.width} ${theme}`).toEqual([]);
        // The viewer as the reader sees it (a full-page picture would add the page under it).
        await ownerPage.screenshot({ path: `test-results/screens/photo-viewer-info-${size.width}-${theme}.png` });
      }
    }
  } finally {
    await visitorContext.close();
    await owner.close();
  }
});
