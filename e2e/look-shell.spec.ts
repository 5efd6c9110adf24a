// Temporary: screenshots for looking (not committed).
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createUser, E2E_ADMIN, E2E_BASE_URL, newAdminContext } from "./helpers";

const CORPUS = path.resolve("../shared/corpus/exif-samples/jpg");
const OUT = "/tmp/shell-shots/look";

test("look", async ({ browser }) => {
  test.setTimeout(240_000);
  fs.mkdirSync(OUT, { recursive: true });
  await createUser(browser, "editor", { name: "Edith Editor" });
  await createUser(browser, "viewer", { name: "Victor Viewer with a rather long name" });
  const admin = await newAdminContext(browser);
  for (const name of ["Canon_40D.jpg", "Nikon_D70.jpg", "Fujifilm_FinePix_E500.jpg"]) {
    const file = path.join(CORPUS, name);
    if (!fs.existsSync(file)) continue;
    const answer = await admin.request.post("/api/upload", { multipart: { file: { name, mimeType: "image/jpeg", buffer: fs.readFileSync(file) } }, headers: { Origin: E2E_BASE_URL } });
    expect(answer.status(), await answer.text()).toBeLessThan(300);
  }
  const token = await admin.request.post("/api/tokens", { data: { name: "phone import script", scopes: ["upload"], expiresInDays: 90 }, headers: { Origin: E2E_BASE_URL } });
  expect(token.status()).toBe(201);
  await new Promise((resolve) => setTimeout(resolve, 8000));
  const state = await admin.storageState();
  await admin.close();
  for (const [vw, vh] of [[1440, 900], [390, 844]]) {
    for (const scheme of ["light", "dark"] as const) {
      const context = await browser.newContext({ storageState: state, viewport: { width: vw, height: vh }, colorScheme: scheme, hasTouch: vw < 500 });
      const page = await context.newPage();
      for (const url of ["/admin", "/admin/upload", "/admin/users", "/admin/tokens", "/this-is-missing", "/api/docs"]) {
        await page.goto(url);
        await page.waitForTimeout(700);
        await page.screenshot({ path: `${OUT}/${url.replaceAll("/", "_")}-${vw}-${scheme}.png`, fullPage: url !== "/api/docs" });
      }
      await page.goto("/admin/users");
      await page.getByRole("button", { name: "Reset password" }).nth(1).click();
      await page.getByLabel("New password", { exact: true }).fill("a-secret-password");
      await page.screenshot({ path: `${OUT}/reset-dialog-${vw}-${scheme}.png` });
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: "Delete" }).nth(1).click();
      await page.screenshot({ path: `${OUT}/delete-dialog-${vw}-${scheme}.png` });
      await context.close();
      const visitor = await browser.newContext({ viewport: { width: vw, height: vh }, colorScheme: scheme });
      const vpage = await visitor.newPage();
      await vpage.goto("/signin?callbackUrl=%2Fadmin");
      await vpage.getByLabel("E-mail", { exact: true }).fill("x@example.test");
      await vpage.getByLabel("Password", { exact: true }).fill("wrong-password");
      await vpage.getByRole("button", { name: "Sign in" }).click();
      await vpage.waitForTimeout(1200);
      await vpage.screenshot({ path: `${OUT}/signin-${vw}-${scheme}.png` });
      await vpage.goto("/auth/error?error=AccessDenied");
      await vpage.screenshot({ path: `${OUT}/autherror-${vw}-${scheme}.png` });
      await visitor.close();
    }
  }
  void E2E_ADMIN;
});
