import { expect, test } from "@playwright/test";
import { E2E_BASE_URL, newAdminContext } from "./helpers";

// The audit log page: a change made through the API shows with who, what and before → after;
// the filters narrow the table; the CSV export downloads the filtered rows.

test("/admin/audit shows a settings change, filters by action, and exports CSV", async ({ browser }) => {
  const context = await newAdminContext(browser);
  const page = await context.newPage();
  const description = `Audit spec ${Date.now()}`;
  try {
    const changed = await context.request.patch("/api/admin/settings", { data: { siteDescription: description }, headers: { Origin: E2E_BASE_URL } });
    expect(changed.status()).toBe(200);

    await page.goto("/admin/audit");
    await expect(page.getByRole("heading", { name: "Audit log", level: 1 })).toBeVisible();
    await expect(page.getByRole("link", { name: "Audit log" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByTestId("audit-row").first()).toBeVisible();

    await page.getByLabel("Action").selectOption("settings.update");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/action=settings.update/);
    const rows = page.getByTestId("audit-row");
    await expect(rows.first()).toContainText(description);
    await expect(rows.first()).toContainText("Erin Admin");
    for (const text of await rows.allTextContents()) expect(text).toContain("settings.update");

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("audit-export").click()]);
    expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
    const stream = await download.createReadStream();
    let csv = "";
    for await (const chunk of stream) csv += String(chunk);
    expect(csv.split("\r\n")[0]).toBe("time,actor_id,actor_email,action,target_type,target_id,address,user_agent,before,after");
    expect(csv).toContain(description);
    expect(csv).not.toContain("auth.sign-in,");
  } finally {
    await context.request.patch("/api/admin/settings", { data: { siteDescription: "A self-hosted photo gallery and portfolio." }, headers: { Origin: E2E_BASE_URL } });
    await context.close();
  }
});
