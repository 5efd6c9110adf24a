import { expect, test } from "@playwright/test";
import { readSeededTour } from "./seeded-tour";
import { TOUR_SHARE_PASSWORD, TOUR_SHARES } from "./seed-shares";

// A share link's visitor in Chromium: the password (wrong, then right, with and without
// JavaScript), the gallery in the link's order, a photo page with arrow keys, the full-screen viewer's
// counter, and a turned-off link.

let photoIds: string[];

test.beforeAll(() => {
  // The tour's share links hold the seeded photos (e2e/seed.setup.ts).
  photoIds = readSeededTour().photoIds;
});

test("a visitor enters the password, sees the gallery and walks the photos with the arrow keys", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const response = await page.goto(`/s/${TOUR_SHARES.password}`);
  expect(response?.status()).toBe(401);
  await expect(page.getByRole("heading", { name: "This link has a password" })).toBeVisible();

  await page.getByTestId("share-password").fill("not the password");
  await page.getByRole("button", { name: "View photos" }).click();
  await expect(page.getByTestId("share-password-problem")).toContainText("That password is not right");

  await page.getByTestId("share-password").fill(TOUR_SHARE_PASSWORD);
  await page.getByRole("button", { name: "View photos" }).click();
  await expect(page.getByTestId("share-title")).toHaveText("Ana & Rui — 14 June");
  expect(new URL(page.url()).pathname).toBe(`/s/${TOUR_SHARES.password}`);
  await expect(page.getByTestId("grid-photo")).toHaveCount(photoIds.length);
  // No way to the site's admin or sign-in from a link's pages.
  await expect(page.locator('a[href^="/admin"], a[href^="/signin"]')).toHaveCount(0);

  await page.getByTestId("grid-photo").first().click();
  await expect(page).toHaveURL(new RegExp(`/s/${TOUR_SHARES.password}/p/${photoIds[0]}$`));
  await expect(page.getByTestId("photo-image")).toBeVisible();
  const source = await page.getByTestId("photo-image").getAttribute("src");
  expect(source).toMatch(new RegExp(`^/s/${TOUR_SHARES.password}/media/`));
  // The arrow keys are the page's own once it has hydrated.
  await page.waitForLoadState("networkidle");
  await page.keyboard.press("ArrowRight");
  await expect(page).toHaveURL(new RegExp(`/p/${photoIds[1]}$`));
  await expect(page.getByRole("link", { name: "Previous photo" })).toBeVisible();
  await page.waitForLoadState("networkidle");
  await page.keyboard.press("ArrowLeft");
  await expect(page).toHaveURL(new RegExp(`/p/${photoIds[0]}$`));

  // The full-screen viewer counts the link's photos as the gallery's does, seen and heard.
  await page.locator(".photo-stage-button").click();
  const viewer = page.getByRole("dialog", { name: "Photo viewer" });
  await expect(viewer.getByRole("status")).toHaveText(new RegExp(`^1 / ${photoIds.length}\\s*Photo 1 of ${photoIds.length}$`));
  await page.keyboard.press("ArrowRight");
  await expect(viewer.getByRole("status")).toContainText(`2 / ${photoIds.length}`);
  await context.close();
});

test("the password form works without JavaScript", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`/s/${TOUR_SHARES.password}/p/${photoIds[1]}`);
  await page.getByTestId("share-password").fill("wrong again");
  await page.getByRole("button", { name: "View photos" }).click();
  await expect(page.getByTestId("share-password-problem")).toContainText("That password is not right");
  await page.getByTestId("share-password").fill(TOUR_SHARE_PASSWORD);
  await page.getByRole("button", { name: "View photos" }).click();
  await expect(page).toHaveURL(new RegExp(`/s/${TOUR_SHARES.password}(/p/${photoIds[1]})?$`));
  await expect(page.getByTestId("share-refusal")).toHaveCount(0);
  await context.close();
});

test("a link without a password opens at once; a turned-off one says so with a 401", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`/s/${TOUR_SHARES.open}`);
  await expect(page.getByTestId("share-title")).toBeVisible();
  await expect(page.getByTestId("share-download-all")).toHaveAttribute("href", `/s/${TOUR_SHARES.open}/download.zip`);
  expect(new URL(page.url()).search).toBe("");
  const refused = await page.goto(`/s/${TOUR_SHARES.revoked}`);
  expect(refused?.status()).toBe(401);
  await expect(page.getByRole("heading", { name: "This link was turned off" })).toBeVisible();
  await context.close();
});
