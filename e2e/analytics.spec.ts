import { expect, type Page, test } from "@playwright/test";
import { createUser, E2E_ADMIN, E2E_BASE_URL, signIn } from "./helpers";

const ANALYTICS_URL = `${E2E_BASE_URL}/analytics-test.js`;

/**
 * Serves a stand-in for the configured analytics script (the server has no such file) that marks
 * the window when it runs, and counts the requests for it.
 */
async function fakeAnalytics(page: Page): Promise<{ requests: () => number; hasRun: () => Promise<boolean> }> {
  let count = 0;
  await page.route(ANALYTICS_URL, async (route) => {
    count += 1;
    await route.fulfill({ contentType: "text/javascript", body: "window.__analyticsRan = true;" });
  });
  return {
    requests: () => count,
    hasRun: () => page.evaluate(() => (window as unknown as { __analyticsRan?: boolean }).__analyticsRan === true),
  };
}

function analyticsScript(page: Page) {
  return page.locator(`script[src="${ANALYTICS_URL}"]`);
}

test("the analytics script is on the public gallery, and runs", async ({ page }) => {
  const analytics = await fakeAnalytics(page);
  await page.goto("/");
  // next/script adds it once the page is interactive.
  await expect(analyticsScript(page)).toHaveCount(1);
  await expect.poll(analytics.requests).toBe(1);
  await expect.poll(analytics.hasRun).toBe(true);
});

test("the analytics script is not on the sign-in page", async ({ page }) => {
  const analytics = await fakeAnalytics(page);
  await page.goto("/signin");
  // Wait until the page is hydrated and idle, when next/script would have added it.
  await expect(page.getByRole("heading", { name: "Sign in to Contact Sheet" })).toBeVisible();
  await page.waitForLoadState("networkidle");
  await expect(analyticsScript(page)).toHaveCount(0);
  expect(analytics.requests()).toBe(0);
  expect(await analytics.hasRun()).toBe(false);
});

test("the analytics script is not on the admin dashboard for an admin", async ({ page }) => {
  // Sign in from /signin (no analytics there) straight to /admin, then load /admin afresh.
  await signIn(page, E2E_ADMIN, { callbackPath: "/admin" });
  const analytics = await fakeAnalytics(page);
  await page.reload();
  await expect(page.getByTestId("user-role")).toHaveText("admin");
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  await page.waitForLoadState("networkidle");
  await expect(analyticsScript(page)).toHaveCount(0);
  expect(analytics.requests()).toBe(0);
  expect(await analytics.hasRun()).toBe(false);
});

test.describe("after a visit to the gallery", () => {
  test("no analytics code runs on the sign-in page reached from the header's link", async ({ page }) => {
    const analytics = await fakeAnalytics(page);
    await page.goto("/");
    await expect.poll(analytics.hasRun).toBe(true);
    await page.getByTestId("sign-in-link").click();
    await expect(page.getByRole("heading", { name: "Sign in to Contact Sheet" })).toBeVisible();
    await expect(analyticsScript(page)).toHaveCount(0, { timeout: 2_000 });
    expect(await analytics.hasRun()).toBe(false);
  });

  test("no analytics code runs on the admin dashboard reached from the header's Admin link", async ({ page, browser }) => {
    const editor = await createUser(browser, "editor");
    await signIn(page, editor);
    const analytics = await fakeAnalytics(page);
    await page.reload();
    await expect.poll(analytics.hasRun).toBe(true);
    await page.getByTestId("user-menu").getByRole("link", { name: "Admin" }).click();
    await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
    await expect(analyticsScript(page)).toHaveCount(0, { timeout: 2_000 });
    expect(await analytics.hasRun()).toBe(false);
  });
});
