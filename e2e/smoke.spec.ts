import { expect, test } from "@playwright/test";
import { E2E_ADMIN } from "./constants";

test("an admin signs in and sees their name and role", async ({ page }) => {
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fadmin/);
  await page.getByLabel("E-mail", { exact: true }).fill(E2E_ADMIN.email);
  await page.getByLabel("Password", { exact: true }).fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByTestId("user-menu")).toContainText(E2E_ADMIN.name);
  await expect(page.getByTestId("user-role")).toHaveText("admin");
  await page.screenshot({ path: "test-results/screens/admin-dashboard.png" });
});
