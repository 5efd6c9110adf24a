import { expect, type Page, test } from "@playwright/test";
import { E2E_ADMIN, screenshot, signIn } from "./helpers";

const PHONE = { width: 390, height: 844 };
const ADMIN_PAGES = ["/admin", "/admin/upload", "/admin/users", "/admin/tokens"];

test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

/** The page's own width; wider than the viewport means the reader has to scroll sideways. */
function documentWidth(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

test("on a phone the signed-in header folds into a menu that holds Admin and Sign out", async ({ page }) => {
  await signIn(page, E2E_ADMIN, { callbackPath: "/admin" });
  const button = page.getByRole("button", { name: `Account menu for ${E2E_ADMIN.name}` });
  const signOut = page.getByRole("button", { name: "Sign out" });

  // Folded: the button is there, the items are not shown, and the theme toggle is still reachable.
  await expect(button).toHaveAttribute("aria-expanded", "false");
  await expect(signOut).toBeHidden();
  await expect(page.getByTestId("theme-toggle")).toBeVisible();

  await button.click();
  await expect(button).toHaveAttribute("aria-expanded", "true");
  await expect(signOut).toBeVisible();
  await expect(page.getByTestId("user-menu").getByRole("link", { name: "Admin" })).toBeVisible();
  await expect(page.getByTestId("user-role")).toHaveText("admin");
  // Nothing in the open menu is cut off at the screen's edge.
  const box = await signOut.boundingBox();
  expect(box).not.toBeNull();
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(PHONE.width);
  expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
  expect(await documentWidth(page)).toBeLessThanOrEqual(PHONE.width);
  await screenshot(page, "phone-header-menu-open");

  // Escape closes it and gives the focus back to its button.
  await page.keyboard.press("Escape");
  await expect(button).toHaveAttribute("aria-expanded", "false");
  await expect(signOut).toBeHidden();
  await expect(button).toBeFocused();

  // And from the keyboard: Enter opens, Tab reaches People, Admin, then Sign out.
  await page.keyboard.press("Enter");
  await expect(signOut).toBeVisible();
  await page.keyboard.press("Tab");
  await expect(page.getByTestId("user-menu").getByRole("link", { name: "People" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByTestId("user-menu").getByRole("link", { name: "Admin" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(signOut).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("sign-in-link")).toBeVisible();
});

test("every admin page fits a phone's width, and the admin tabs mark the current page", async ({ page }) => {
  await signIn(page, E2E_ADMIN, { callbackPath: "/admin" });
  for (const path of ADMIN_PAGES) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Admin" }).locator('[aria-current="page"]')).toHaveAttribute("href", path);
    expect(await documentWidth(page), `${path} scrolls sideways`).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, `phone${path.replaceAll("/", "-")}`);
  }
});

test("on a phone the admin tabs say that more tabs follow, on the side where they are", async ({ page }) => {
  await signIn(page, E2E_ADMIN, { callbackPath: "/admin" });
  const frame = page.locator(".admin-nav-frame");
  const nav = page.getByRole("navigation", { name: "Admin" });
  // The dashboard's tab is first: more tabs after it, none before.
  await expect(frame).toHaveAttribute("data-more-after", "true");
  await expect(frame).not.toHaveAttribute("data-more-before", /.*/);
  await page.screenshot({ path: "test-results/screens/phone-admin-tabs-more-after.png" });
  // Scrolled to the end: the cue moves to the start.
  await nav.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
  await expect(frame).toHaveAttribute("data-more-before", "true");
  await expect(frame).not.toHaveAttribute("data-more-after", /.*/);
  // On a page in the middle of the row, both sides.
  await page.goto("/admin/shares");
  await expect(frame).toHaveAttribute("data-more-before", "true");
  await expect(frame).toHaveAttribute("data-more-after", "true");
});
