import { expect, request as playwrightRequest, test } from "@playwright/test";
import { createUser, E2E_BASE_URL, screenshot, signIn, toast } from "./helpers";

test("an editor creates an API token, sees its secret once, uses it, and revokes it", async ({ page }, testInfo) => {
  test.setTimeout(60_000);
  const editor = await createUser(page.context().browser()!, "editor");
  const tokenName = `import script ${Date.now() % 100000}`;
  // A script's view of the site: no cookies, only the token.
  const script = await playwrightRequest.newContext({ baseURL: E2E_BASE_URL });

  try {
    await signIn(page, editor, { callbackPath: "/admin" });
    await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "API tokens" }).click();
    await expect(page).toHaveURL("/admin/tokens");
    await expect(page.getByRole("heading", { name: "API tokens", level: 1 })).toBeVisible();
    await expect(page.getByText("You have no API tokens.")).toBeVisible();

    let secret = "";
    await test.step("create a token with the upload and photos:read scopes", async () => {
      const form = page.getByRole("form", { name: "Create an API token" });
      await form.getByLabel("Name").fill(tokenName);
      await form.getByLabel("upload").check();
      await form.getByLabel("photos:read").check();
      await form.getByLabel("Expires").selectOption("30");
      await form.getByRole("button", { name: "Create token" }).click();

      await expect(toast(page, `Created token “${tokenName}”`)).toBeVisible();
      secret = (await page.getByTestId("new-token-secret").textContent()) ?? "";
      expect(secret).toMatch(/^cs_[A-Za-z0-9_-]{43}$/);
      const row = page.getByTestId(`token-row-${tokenName}`);
      await expect(row).toContainText("upload, photos:read");
      await expect(row).toContainText(`${secret.slice(0, 7)}…`);
      await expect(row.getByRole("cell").nth(4)).toHaveText("Never");
      // The example command names this site's real address, not localhost or a placeholder.
      await expect(page.getByTestId("token-curl-example")).toContainText(`${E2E_BASE_URL}/api/upload`);
      await page.screenshot({ path: testInfo.outputPath("token-created.png"), fullPage: true });
      await screenshot(page, "api-token-created");
    });

    await test.step("the secret works for a script, and the list shows it was used", async () => {
      const answer = await script.get("/api/upload", { headers: { Authorization: `Bearer ${secret}` } });
      expect(answer.status()).toBe(200);
      expect(((await answer.json()) as { uploader: { id: string } }).uploader.id).toBe(editor.id);
      await page.reload();
      await expect(page.getByTestId(`token-row-${tokenName}`).getByRole("cell").nth(4)).toHaveText(/UTC$/);
    });

    await test.step("after a reload the secret is nowhere on the page", async () => {
      await expect(page.getByTestId("new-token")).toHaveCount(0);
      expect(await page.content()).not.toContain(secret);
      expect(await page.content()).not.toContain(secret.slice(7));
    });

    await test.step("revoke it", async () => {
      page.on("dialog", (dialog) => {
        throw new Error(`A browser ${dialog.type()} opened instead of our dialog`);
      });
      await page.getByTestId(`token-row-${tokenName}`).getByRole("button", { name: "Revoke" }).click();
      const dialog = page.getByRole("dialog");
      await expect(dialog.getByRole("heading")).toHaveText(`Revoke “${tokenName}”?`);
      await dialog.getByRole("button", { name: "Revoke token" }).click();
      await expect(dialog).toBeHidden();
      await expect(toast(page, `Revoked token “${tokenName}”`)).toBeVisible();
      await expect(page.getByTestId(`token-row-${tokenName}`)).toHaveCount(0);
      await expect(page.getByText("You have no API tokens.")).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath("token-revoked.png"), fullPage: true });
      await screenshot(page, "api-token-revoked");
      const refused = await script.get("/api/upload", { headers: { Authorization: `Bearer ${secret}` } });
      expect(refused.status()).toBe(401);
    });
  } finally {
    await script.dispose();
  }
});

// A viewer's 403 at /admin/tokens, without the form, is in tests/page-refusals.test.ts.
