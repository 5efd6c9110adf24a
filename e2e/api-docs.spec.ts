import { expect, test } from "@playwright/test";
import { E2E_BASE_URL } from "./constants";

// The API reference is for people on a site that may have no internet: it must read well on a
// desktop and a phone and fetch nothing from anywhere else.
for (const [name, viewport] of [
  ["desktop", { width: 1280, height: 900 }],
  ["phone", { width: 390, height: 844 }],
] as const) {
  test(`a visitor reads the API reference on a ${name}, and it loads nothing from elsewhere`, async ({ page }) => {
    const foreignRequests: string[] = [];
    page.on("request", (request) => {
      if (!request.url().startsWith(E2E_BASE_URL)) foreignRequests.push(request.url());
    });
    await page.setViewportSize(viewport);
    await page.goto("/api/docs");
    await expect(page.getByRole("heading", { level: 1, name: "Contact Sheet API" })).toBeVisible();
    const listPhotos = page.locator("#getApiPhotos");
    await expect(listPhotos).toContainText("/api/photos");
    await expect(listPhotos).toContainText("photos:read");
    // Nothing wider than the screen: the page scrolls down, never sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    await page.screenshot({ path: `test-results/screens/api-docs-${name}.png` });
    await listPhotos.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screens/api-docs-${name}-photos.png` });
    await page.getByRole("link", { name: "openapi.json" }).click();
    await expect(page).toHaveURL(/\/api\/openapi\.json$/);
    expect(foreignRequests).toEqual([]);
  });
}
