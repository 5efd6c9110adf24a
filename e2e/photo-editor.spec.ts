import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_BASE_URL, newAdminContext, toast } from "./helpers";

// The photo editor's corrections (date taken, location, rotation) on a phone: the one thing here a
// browser is needed for is the form at 390 px (it fits, its controls work by touch and keyboard).
// The rules and refusals are tested over HTTP in tests/photo-edit.test.ts.

const NO_EXIF_JPEG = path.resolve("../shared/corpus/exif-samples/jpg/xmp/no_exif.jpg");
const SCREENS = path.resolve("test-results/screens");

let photoId = "";

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await newAdminContext(browser);
  try {
    // A photo of its own, private: the seeded public photos' dates are what /years shows elsewhere.
    const uploaded = await context.request.post("/api/upload", {
      headers: { Origin: E2E_BASE_URL },
      multipart: { file: { name: "no_exif.jpg", mimeType: "image/jpeg", buffer: fs.readFileSync(NO_EXIF_JPEG) } },
    });
    expect(uploaded.status()).toBe(201);
    photoId = ((await uploaded.json()) as { photos: Array<{ id: string }> }).photos[0].id;
    await expect
      .poll(async () => ((await (await context.request.get(`/api/photos/${photoId}`)).json()) as { photo: { status: string } }).photo.status, { timeout: 60_000, intervals: [250] })
      .toBe("ready");
  } finally {
    await context.close();
  }
});

test("at 390 px the owner dates, places and turns a photo without a date", async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await newAdminContext(browser);
  const page = await context.newPage();
  try {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/p/${photoId}`);
    await expect(page.getByTestId("exif-date")).toHaveText("Date unknown");
    const editor = page.getByRole("form", { name: "Edit photo" });
    await editor.scrollIntoViewIfNeeded();
    fs.mkdirSync(SCREENS, { recursive: true });
    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await editor.screenshot({ path: path.join(SCREENS, `photo-editor-390-${theme}.png`), animations: "disabled" });
    }
    // Nothing wider than the phone: no sideways scrolling to reach a field.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    await editor.getByLabel("Date and time").fill("2009-07-14T18:30:00");
    await editor.getByLabel("Time zone").selectOption("+02:00");
    await editor.getByLabel("Latitude").fill("38.7223");
    await editor.getByLabel("Longitude").fill("-9.1393");
    const status = editor.getByTestId("editor-rotation-status");
    await expect(status).toHaveText("As uploaded.");
    await editor.getByRole("button", { name: "Rotate right" }).click();
    await expect(status).toContainText("Turned a quarter to the right.");
    await editor.getByRole("button", { name: "Rotate left" }).press("Enter");
    await editor.getByRole("button", { name: "Rotate left" }).press("Enter");
    await expect(status).toContainText("Turned a quarter to the left.");
    await editor.getByRole("button", { name: "Save" }).click();
    await expect(toast(page, /Photo saved/)).toBeVisible();

    await expect(page.getByTestId("exif-date")).toHaveText("14 July 2009, 18:30");
    await expect(page.getByTestId("exif-year-link")).toHaveAttribute("href", "/years/2009");
    const saved = ((await (await context.request.get(`/api/photos/${photoId}`)).json()) as { photo: { takenAt: string; location: unknown; rotation: number } }).photo;
    expect(saved).toMatchObject({ takenAt: "2009-07-14T18:30:00+02:00", location: { latitude: 38.7223, longitude: -9.1393 }, rotation: 270 });

    for (const size of [{ width: 1440, height: 900 }]) {
      await page.setViewportSize(size);
      for (const theme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: theme });
        await page.screenshot({ path: path.join(SCREENS, `photo-page-edited-1440-${theme}.png`), fullPage: true, animations: "disabled" });
        await editor.screenshot({ path: path.join(SCREENS, `photo-editor-1440-${theme}.png`), animations: "disabled" });
      }
    }
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: "light" });
    await page.screenshot({ path: path.join(SCREENS, "photo-page-edited-390-light.png"), fullPage: true, animations: "disabled" });
  } finally {
    await context.close();
  }
});

test("the rating and colour label are set with the keyboard alone, and the library filters by them", async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await newAdminContext(browser);
  const page = await context.newPage();
  try {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/p/${photoId}`);
    const editor = page.getByRole("form", { name: "Edit photo" });
    const rating = editor.getByRole("group", { name: "Rating" });
    const label = editor.getByRole("group", { name: "Colour label" });
    await rating.getByRole("radio", { name: "No rating" }).focus();
    for (let step = 0; step < 4; step += 1) await page.keyboard.press("ArrowRight");
    await expect(rating.getByRole("radio", { name: "4 stars" })).toBeChecked();
    await page.keyboard.press("Tab");
    await expect(label.getByRole("radio", { name: "No label" })).toBeFocused();
    await page.keyboard.press("ArrowRight");
    await expect(label.getByRole("radio", { name: "Red" })).toBeChecked();
    fs.mkdirSync(SCREENS, { recursive: true });
    for (const size of [{ width: 390, height: 844 }, { width: 1440, height: 900 }]) {
      await page.setViewportSize(size);
      for (const theme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: theme });
        await rating.locator("xpath=..").screenshot({ path: path.join(SCREENS, `photo-editor-notes-${size.width}-${theme}.png`), animations: "disabled" });
      }
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1440);
    await editor.getByRole("button", { name: "Save" }).click();
    await expect(toast(page, /Photo saved/)).toBeVisible();
    const saved = ((await (await context.request.get(`/api/photos/${photoId}`)).json()) as { photo: { rating: number; label: string } }).photo;
    expect(saved).toMatchObject({ rating: 4, label: "red" });

    await page.goto("/admin/photos?minRating=4&label=red");
    // Only this spec rates photos: the filtered library holds this one, named by the title written in its XMP (dc:title).
    await expect(page.getByText("Der Goalie bin ig", { exact: true })).toBeVisible();
    await expect(page.getByText("1 photo", { exact: true })).toBeVisible();
    for (const size of [{ width: 390, height: 844 }, { width: 1440, height: 900 }]) {
      await page.setViewportSize(size);
      for (const theme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: theme });
        await page.getByRole("form", { name: "Filter photos" }).screenshot({ path: path.join(SCREENS, `library-filters-rating-${size.width}-${theme}.png`), animations: "disabled" });
      }
    }
  } finally {
    await context.close();
  }
});
