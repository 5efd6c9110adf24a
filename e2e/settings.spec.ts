import { expect, test } from "@playwright/test";
import { E2E_BASE_URL, newAdminContext, toast } from "./helpers";

// An admin renames the site in /admin/settings; a visitor sees the new name at once on the public
// pages (header and <title>), although the visitor's `/` is kept in memory.

test("an admin changes the site title and a visitor sees it in the header and the page title", async ({ browser }) => {
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  // The visitor's `/` is now cached by the server.
  await visitor.goto("/");
  await expect(visitor.locator(".site-title")).toHaveText("Contact Sheet");

  const adminContext = await newAdminContext(browser);
  const admin = await adminContext.newPage();
  const newTitle = `Harbour Lights ${Date.now() % 100000}`;
  try {
    await admin.goto("/admin/settings");
    await expect(admin.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
    await admin.getByLabel("Site title").fill(newTitle);
    await admin.getByRole("button", { name: "Save settings" }).click();
    await expect(toast(admin, "Settings saved.")).toBeVisible();
    // The admin's own header follows too.
    await expect(admin.locator(".site-title")).toHaveText(newTitle);

    await visitor.goto("/");
    await expect(visitor.locator(".site-title")).toHaveText(newTitle);
    await expect(visitor).toHaveTitle(newTitle);
    await visitor.goto("/signin");
    await expect(visitor).toHaveTitle(`Sign in · ${newTitle}`);

    // A bad value is refused with the server's words, and nothing changes.
    await admin.getByLabel("Analytics script URL").fill("javascript:alert(1)");
    await admin.getByRole("button", { name: "Save settings" }).click();
    await expect(admin.getByTestId("settings-error")).toContainText("http:// or https://");
    await visitor.goto("/");
    await expect(visitor.locator(".site-title")).toHaveText(newTitle);

    // The change is in the audit log, with the title before and after.
    await admin.goto("/admin/audit?action=settings.update");
    const row = admin.getByTestId("audit-row").first();
    await expect(row).toContainText("settings.update");
    await expect(row).toContainText(newTitle);
    await expect(row).toContainText("Contact Sheet");
  } finally {
    // Other specs expect the product's name.
    const response = await adminContext.request.patch("/api/admin/settings", { data: { siteTitle: "Contact Sheet" }, headers: { Origin: E2E_BASE_URL } });
    expect(response.status()).toBe(200);
    await adminContext.close();
    await visitorContext.close();
  }
});

// A real site's name on a phone: the header must hold the longest title the settings allow at
// 320-430 px, cut with an ellipsis, never running under Albums, the search magnifier, the theme
// button or Sign in.
test("a long site title never overlaps the header's controls on a phone", async ({ browser }) => {
  // The product's own name fits whole beside the controls on a 390 px phone.
  const phone = await browser.newContext({ viewport: { width: 390, height: 740 } });
  const phonePage = await phone.newPage();
  await phonePage.goto("/search");
  await expect(phonePage.getByTestId("sign-in-link")).toBeVisible();
  expect(await phonePage.locator(".site-title").evaluate((title) => title.scrollWidth <= title.clientWidth)).toBe(true);
  await phone.close();

  const adminContext = await newAdminContext(browser);
  const longTitle = "Ada Lens Photography — weddings, portraits and the coast of Northumberland in every season".slice(0, 80);
  const response = await adminContext.request.patch("/api/admin/settings", { data: { siteTitle: longTitle }, headers: { Origin: E2E_BASE_URL } });
  expect(response.status()).toBe(200);
  try {
    for (const colorScheme of ["light", "dark"] as const) {
      for (const width of [320, 390, 430]) {
        const context = await browser.newContext({ viewport: { width, height: 740 }, colorScheme });
        const page = await context.newPage();
        await page.goto("/albums");
        await expect(page.locator(".site-title")).toHaveText(longTitle);
        await expect(page.getByTestId("sign-in-link")).toBeVisible();
        const boxes = await page.locator(".site-header").evaluate((header) =>
          [".site-title", "[data-testid=albums-link]", "[data-testid=search-link]", ".theme-toggle, [data-testid=theme-toggle]", "[data-testid=sign-in-link]"].map((selector) => {
            const element = header.querySelector(selector);
            const box = element?.getBoundingClientRect();
            return { selector, box: box ? { left: box.left, right: box.right, top: box.top, bottom: box.bottom } : null };
          }),
        );
        for (const { selector, box } of boxes) expect(box, `${selector} at ${width} px`).not.toBeNull();
        const placed = boxes.map(({ selector, box }) => ({ selector, box: box! }));
        for (const [index, first] of placed.entries()) {
          expect(first.box.right, `${first.selector} inside the page at ${width} px`).toBeLessThanOrEqual(width + 0.5);
          for (const second of placed.slice(index + 1)) {
            const overlaps = first.box.left < second.box.right - 0.5 && second.box.left < first.box.right - 0.5 && first.box.top < second.box.bottom - 0.5 && second.box.top < first.box.bottom - 0.5;
            expect(overlaps, `${first.selector} overlaps ${second.selector} at ${width} px (${colorScheme})`).toBe(false);
          }
        }
        if (width === 390) await page.screenshot({ path: `test-results/long-title-${colorScheme}-${width}.png` });
        await context.close();
      }
    }
  } finally {
    const restore = await adminContext.request.patch("/api/admin/settings", { data: { siteTitle: "Contact Sheet" }, headers: { Origin: E2E_BASE_URL } });
    expect(restore.status()).toBe(200);
    await adminContext.close();
  }
});
