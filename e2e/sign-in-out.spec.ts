import { expect, test } from "@playwright/test";
import { createUser, screenshot, signIn, signInError, submitSignInForm, toast } from "./helpers";

const REFUSED_SIGN_IN = "That e-mail and password do not match an active account. Check them and try again.";

test("a wrong password shows the inline message once (no toast repeating it), and does not sign in", async ({ page, browser }) => {
  const viewer = await createUser(browser, "viewer");
  await page.goto("/signin?callbackUrl=%2Fadmin");
  await expect(signInError(page)).toHaveCount(0);

  await submitSignInForm(page, { email: viewer.email, password: `${viewer.password}-wrong` });
  await expect(signInError(page)).toHaveText(REFUSED_SIGN_IN);
  await expect(page.getByText(REFUSED_SIGN_IN)).toHaveCount(1);
  await expect(toast(page, REFUSED_SIGN_IN)).toHaveCount(0);
  await expect(page).toHaveURL("/signin?callbackUrl=%2Fadmin");
  await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
  await screenshot(page, "sign-in-wrong-password");

  // Still signed out: the session API knows no user and a guarded page sends them to sign in.
  expect(await (await page.request.get("/api/auth/session")).json()).toEqual({});
  expect((await page.request.get("/api/photos")).status()).toBe(401);
});

test("signing out from the user menu shows a toast and the sign-in link", async ({ page, browser }) => {
  const viewer = await createUser(browser, "viewer");
  await signIn(page, viewer);
  const menu = page.getByTestId("user-menu");
  await expect(menu).toContainText(viewer.name);

  await menu.getByRole("button", { name: "Sign out" }).click();
  await expect(toast(page, "Signed out")).toBeVisible();
  await expect(page.getByTestId("sign-in-link")).toBeVisible();
  await expect(page.getByTestId("user-menu")).toHaveCount(0);
  await expect(page).toHaveURL("/");

  // Really signed out, also after a reload and for the server.
  await page.reload();
  await expect(page.getByTestId("sign-in-link")).toBeVisible();
  expect((await page.request.get("/api/photos")).status()).toBe(401);
  await page.goto("/admin");
  await expect(page).toHaveURL("/signin?callbackUrl=%2Fadmin");
});

test("after five wrong passwords the account is locked for a while, even with the right password", async ({ page, browser }) => {
  const viewer = await createUser(browser, "viewer");
  await page.goto("/signin?callbackUrl=%2F");
  for (let attempt = 1; attempt <= 5; attempt += 1) {
    await submitSignInForm(page, { email: viewer.email, password: `wrong-password-${attempt}` });
    await expect(signInError(page)).toHaveText(REFUSED_SIGN_IN);
    await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
  }
  await submitSignInForm(page, viewer);
  await expect(signInError(page)).toHaveText("Too many sign-in attempts. Wait a few minutes, then try again.");
  await expect(page.getByText("Too many sign-in attempts.")).toHaveCount(1);
  await expect(page.getByTestId("user-menu")).toHaveCount(0);
  expect(await (await page.request.get("/api/auth/session")).json()).toEqual({});
});
