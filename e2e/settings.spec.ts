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
