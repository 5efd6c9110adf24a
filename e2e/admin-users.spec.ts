import { expect, type Locator, type Page, test } from "@playwright/test";
import { createUser, E2E_ADMIN, screenshot, signIn, signInError, submitSignInForm, toast, uniqueEmail } from "./helpers";

const REFUSED_SIGN_IN = "That e-mail and password do not match an active account. Check them and try again.";

/** The page's open modal dialog (our <dialog>, never the browser's prompt or confirm). */
function openDialog(page: Page): Locator {
  return page.getByRole("dialog");
}

/** Fails the test if the browser's own prompt, confirm or alert ever opens. */
function refuseBrowserDialogs(page: Page): void {
  page.on("dialog", (dialog) => {
    throw new Error(`A browser ${dialog.type()} opened: ${dialog.message()}`);
  });
}

/** Tries to sign in on the user's own page and expects the sign-in page to refuse. */
async function expectSignInRefused(page: Page, user: { email: string; password: string }): Promise<void> {
  await page.goto("/signin?callbackUrl=%2F");
  await submitSignInForm(page, user);
  await expect(signInError(page)).toHaveText(REFUSED_SIGN_IN);
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2F$/);
  await expect(page.getByTestId("user-menu")).toHaveCount(0);
  // Said once, beside the form: no toast repeats it.
  await expect(toast(page, REFUSED_SIGN_IN)).toHaveCount(0);
}

test("an admin creates, changes, disables, resets, signs out and deletes a user", async ({ page, browser }) => {
  test.setTimeout(90_000);
  const user = { name: `Uma User ${Date.now() % 100000}`, email: uniqueEmail("managed"), password: "first-password-123" };
  const newPassword = "second-password-456";
  const userContext = await browser.newContext();
  const userPage = await userContext.newPage();
  const row = page.getByTestId(`user-row-${user.email}`);

  try {
    refuseBrowserDialogs(page);
    await signIn(page, E2E_ADMIN, { callbackPath: "/admin/users" });

    await test.step("create the user", async () => {
      const form = page.getByRole("form", { name: "Create a user" });
      await form.getByLabel("Name").fill(user.name);
      await form.getByLabel("E-mail").fill(user.email);
      await form.getByLabel("Role").selectOption("viewer");
      await form.getByLabel("Password", { exact: true }).fill(user.password);
      await form.getByRole("button", { name: "Create user" }).click();

      await expect(toast(page, `Created ${user.email}`)).toBeVisible();
      await expect(row).toBeVisible();
      await expect(row).toContainText(user.name);
      await expect(row.getByLabel(`Role of ${user.email}`)).toHaveValue("viewer");
      await expect(row.getByRole("cell", { name: "Active", exact: true })).toBeVisible();
      // The form is emptied for the next user.
      await expect(form.getByLabel("E-mail")).toHaveValue("");
    });

    await test.step("change its role to editor", async () => {
      await row.getByLabel(`Role of ${user.email}`).selectOption("editor");
      await expect(toast(page, `${user.email} is now editor`)).toBeVisible();
      await page.reload();
      await expect(row.getByLabel(`Role of ${user.email}`)).toHaveValue("editor");
      // The user sees the new role when they sign in.
      await signIn(userPage, user);
      await expect(userPage.getByTestId("user-role")).toHaveText("editor");
    });

    await test.step("disable it: the user cannot sign in", async () => {
      await row.getByRole("button", { name: "Disable" }).click();
      await expect(toast(page, `${user.email} disabled`)).toBeVisible();
      await expect(row.getByRole("cell", { name: "Disabled", exact: true })).toBeVisible();
      await expect(row.getByRole("button", { name: "Enable" })).toBeVisible();

      // Their open session ends on the next page load, and signing in again is refused.
      await userPage.reload();
      await expect(userPage.getByTestId("sign-in-link")).toBeVisible();
      await expectSignInRefused(userPage, user);
    });

    await test.step("re-enable it: the user can sign in again", async () => {
      await row.getByRole("button", { name: "Enable" }).click();
      await expect(toast(page, `${user.email} enabled`)).toBeVisible();
      await expect(row.getByRole("cell", { name: "Active", exact: true })).toBeVisible();
      await signIn(userPage, user);
    });

    await test.step("reset the password through the dialog, hidden until Show is pressed", async () => {
      await row.getByRole("button", { name: "Reset password" }).click();
      const dialog = openDialog(page);
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole("heading")).toHaveText(`Reset the password of ${user.email}`);
      const field = dialog.getByLabel("New password", { exact: true });
      await expect(field).toBeFocused();
      await field.fill(newPassword);
      await expect(field).toHaveAttribute("type", "password");
      await dialog.getByRole("button", { name: "Show new password" }).click();
      await expect(field).toHaveAttribute("type", "text");
      await expect(field).toHaveValue(newPassword);
      await dialog.getByRole("button", { name: "Hide new password" }).click();
      await expect(field).toHaveAttribute("type", "password");
      await screenshot(page, "admin-users-reset-dialog");
      await dialog.getByRole("button", { name: "Reset password" }).click();
      await expect(dialog).toBeHidden();
      await expect(toast(page, `Password reset for ${user.email}; they were signed out everywhere`)).toBeVisible();

      // As the toast says, their open session is over.
      await userPage.reload();
      await expect(userPage.getByTestId("sign-in-link")).toBeVisible();
      // The old password no longer works; the new one does.
      await expectSignInRefused(userPage, user);
      await signIn(userPage, { email: user.email, password: newPassword });
      await expect(userPage.getByTestId("user-menu")).toContainText(user.name);
    });

    await test.step("sign the user out everywhere", async () => {
      // Their session works before...
      expect((await userPage.request.get("/api/photos")).status()).toBe(200);
      await row.getByRole("button", { name: "Sign out everywhere" }).click();
      await openDialog(page).getByRole("button", { name: "Sign out everywhere" }).click();
      await expect(toast(page, `${user.email} was signed out everywhere`)).toBeVisible();

      // ...and is refused on the next page load.
      await userPage.reload();
      await expect(userPage.getByTestId("sign-in-link")).toBeVisible();
      await expect(userPage.getByTestId("user-menu")).toHaveCount(0);
      expect((await userPage.request.get("/api/photos")).status()).toBe(401);
      // The admin who did it is still signed in.
      await page.reload();
      await expect(page.getByTestId("user-role")).toHaveText("admin");
    });

    await test.step("delete it after confirming", async () => {
      await screenshot(page, "admin-users-before-delete");
      await row.getByRole("button", { name: "Delete" }).click();
      const dialog = openDialog(page);
      await expect(dialog.getByRole("heading")).toHaveText(`Delete ${user.email}?`);
      await expect(dialog).toContainText("This cannot be undone.");
      // Cancel has the focus, so Enter never deletes by accident.
      await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
      await dialog.getByRole("button", { name: "Delete user" }).click();
      await expect(toast(page, `Deleted ${user.email}`)).toBeVisible();
      await expect(row).toHaveCount(0);
      await page.reload();
      await expect(page.getByTestId(`user-row-${E2E_ADMIN.email}`)).toBeVisible();
      await expect(row).toHaveCount(0);
      // A deleted user cannot sign in.
      await expectSignInRefused(userPage, { email: user.email, password: newPassword });
    });
  } finally {
    await userContext.close();
  }
});

test("dismissing the delete confirmation keeps the user, and an admin cannot delete themself", async ({ page, browser }) => {
  const viewer = await createUser(browser, "viewer");
  await signIn(page, E2E_ADMIN, { callbackPath: "/admin/users" });
  const row = page.getByTestId(`user-row-${viewer.email}`);
  await expect(row).toBeVisible();

  let requestedDelete = false;
  page.on("request", (request) => {
    if (request.method() === "DELETE" && request.url().endsWith(`/api/admin/users/${viewer.id}`)) requestedDelete = true;
  });
  refuseBrowserDialogs(page);
  await row.getByRole("button", { name: "Delete" }).click();
  const dialog = openDialog(page);
  await expect(dialog.getByRole("heading")).toHaveText(`Delete ${viewer.email}?`);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  // Escape dismisses it as well.
  await row.getByRole("button", { name: "Delete" }).click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(row.getByRole("button", { name: "Delete" })).toBeFocused();
  await page.reload();
  await expect(row).toBeVisible();
  expect(requestedDelete).toBe(false);
  await expect(toast(page, `Deleted ${viewer.email}`)).toHaveCount(0);

  await expect(page.getByTestId(`user-row-${E2E_ADMIN.email}`).getByRole("button", { name: "Delete" })).toBeDisabled();
});

test("an admin sees the API's refusal as an error toast", async ({ page, browser }) => {
  const existing = await createUser(browser, "viewer");
  await signIn(page, E2E_ADMIN, { callbackPath: "/admin/users" });
  const form = page.getByRole("form", { name: "Create a user" });
  await form.getByLabel("Name").fill("Duplicate");
  await form.getByLabel("E-mail").fill(existing.email);
  await form.getByLabel("Password", { exact: true }).fill("another-password-1");
  await form.getByRole("button", { name: "Create user" }).click();
  await expect(toast(page, "A user with that e-mail already exists.")).toHaveCount(1);
  // Nothing was cleared, and the list still has one row for that address.
  await expect(form.getByLabel("E-mail")).toHaveValue(existing.email);
  await expect(page.getByTestId(`user-row-${existing.email}`)).toHaveCount(1);
});

test("an admin who signs themself out everywhere is told so, and is signed out", async ({ page, browser }) => {
  // A second admin, so the shared e2e admin's sessions stay valid for the other tests.
  const admin = await createUser(browser, "admin");
  await signIn(page, admin, { callbackPath: "/admin/users" });
  await page.getByTestId(`user-row-${admin.email}`).getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(page.getByRole("dialog")).toContainText("That includes this one.");
  await page.getByRole("dialog").getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(toast(page, `${admin.email} was signed out everywhere`)).toBeVisible();
  await expect(page.getByTestId("user-menu")).toHaveCount(0, { timeout: 3_000 });
  await expect(toast(page, "Sign in to continue.")).toHaveCount(0);
});
