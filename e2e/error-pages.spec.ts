import { expect, test } from "@playwright/test";

test("an unknown page is a 404 with the exact title and heading", async ({ page }) => {
  const response = await page.goto("/this-does-not-exist");
  expect(response?.status()).toBe(404);
  // Checked after hydration (the header's session state is shown), so the title is the final one.
  await expect(page.getByTestId("sign-in-link")).toBeVisible();
  await expect(page).toHaveTitle("404: This page could not be found");
  const heading = page.getByRole("heading", { level: 1 });
  await expect(heading).toContainText("404");
  await expect(heading).toContainText("This page could not be found");
  await expect(page.getByRole("link", { name: "Back to the gallery" })).toHaveAttribute("href", "/");
  await page.screenshot({ path: "test-results/screens/error-404.png" });
});

test("a form POST to a page is a 405 page with the exact title", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByTestId("sign-in-link")).toBeVisible();

  const answer = page.waitForResponse(
    (response) => response.request().method() === "POST" && new URL(response.url()).pathname === "/",
  );
  await page.evaluate(() => {
    const form = document.createElement("form");
    form.method = "POST";
    form.action = "/";
    const field = document.createElement("input");
    field.name = "anything";
    field.value = "1";
    form.append(field);
    document.body.append(form);
    form.submit();
  });
  const response = await answer;
  expect(response.status()).toBe(405);
  expect(response.headers()["allow"]).toBe("GET, HEAD");
  await expect(page).toHaveTitle("405: Method Not Allowed");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/405\s*Method Not Allowed/);
  // The browser shows the error page, not the gallery.
  await expect(page.getByText("No public photos yet.")).toHaveCount(0);
});

test("a path that does not decode is a 400 page with the exact title", async ({ page }) => {
  const response = await page.goto("/%E0%A4%A");
  expect(response?.status()).toBe(400);
  await expect(page).toHaveTitle("400: Bad Request");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/400\s*Bad Request/);
});
