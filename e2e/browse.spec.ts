import { expect, test } from "@playwright/test";
import { screenshot } from "./helpers";
import { readSeededTour } from "./seeded-tour";

// Browsing by camera end to end: a visitor opens a photo, follows its camera in the EXIF card to
// the camera's page, finds the photo there, and goes on to every camera and to the photo's year.

test("a visitor follows a photo's camera to the camera's page, then to /cameras and the photo's year", async ({ browser }) => {
  test.setTimeout(180_000);
  // The first seeded photo is the iPhone 6 one (with a lens and a date taken).
  const [photoId] = readSeededTour().photoIds;
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(`/p/${photoId}`);
    const cameraLink = page.getByTestId("exif-camera-link");
    await expect(cameraLink).toHaveText("Apple iPhone 6");
    await cameraLink.click();
    await expect(page).toHaveURL(/\/cameras\/apple-iphone-6$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Apple iPhone 6");
    await expect(page.getByTestId("browse-count")).toHaveText(/^\d+ photos?$/);
    await expect(page.locator(`a[href="/p/${photoId}"]`).first()).toBeVisible();
    await screenshot(page, "browse-camera");

    // Up to every camera: the iPhone is among them, with its count.
    await page.getByRole("link", { name: "Cameras" }).first().click();
    await expect(page).toHaveURL(/\/cameras$/);
    const card = page.locator('[data-testid="browse-card"][data-key="apple-iphone-6"]');
    await expect(card).toBeVisible();
    await expect(card.getByTestId("browse-card-count")).toHaveText(/^\d+ photos?$/);

    // Back on the photo, its date leads to its year.
    await page.goto(`/p/${photoId}`);
    await page.getByTestId("exif-year-link").click();
    await expect(page).toHaveURL(/\/years\/2015$/);
    await expect(page.locator(`a[href="/p/${photoId}"]`).first()).toBeVisible();
  } finally {
    await context.close();
  }
});

test("an address that names no camera or year is the site's 404 page", async ({ page }) => {
  for (const path of ["/cameras/no-such-camera", "/years/abcd", "/years/99999"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  }
});
