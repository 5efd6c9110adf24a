import { expect, type Page, type Response, test } from "@playwright/test";
import { createUser, E2E_ADMIN, screenshot, signIn, submitSignInForm } from "./helpers";

/** The redirect that led to this final response (the first hop), if any. */
function firstRedirect(response: Response | null) {
  let request = response?.request().redirectedFrom() ?? null;
  while (request?.redirectedFrom()) request = request.redirectedFrom();
  return request;
}

async function expectForbiddenPage(page: Page, path: string): Promise<void> {
  const response = await page.goto(path);
  expect(response?.status(), `${path} should answer 403`).toBe(403);
  await expect(page).toHaveURL(path);
  await expect(page.getByTestId("forbidden-message")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("403");
  // Nothing of the admin pages leaks onto the 403 page.
  await expect(page.getByRole("heading", { name: /Dashboard|Users/ })).toHaveCount(0);
  await expect(page.getByRole("form", { name: "Create a user" })).toHaveCount(0);
}

test.describe("a signed-out visitor", () => {
  test("sees the sign-in link on the gallery", async ({ page }) => {
    const response = await page.goto("/");
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { name: "Contact Sheet", level: 1 })).toBeVisible();
    const signInLink = page.getByTestId("sign-in-link");
    await expect(signInLink).toBeVisible();
    await expect(signInLink).toHaveAttribute("href", "/signin?callbackUrl=%2F");
    await expect(page.getByTestId("user-menu")).toHaveCount(0);
    await screenshot(page, "signed-out-gallery");

    await signInLink.click();
    await expect(page).toHaveURL("/signin?callbackUrl=%2F");
    await expect(page.getByRole("heading", { name: "Sign in to Contact Sheet" })).toBeVisible();
  });

  test("is sent from /admin to sign in, and lands back on /admin after signing in", async ({ page, browser }) => {
    const editor = await createUser(browser, "editor");
    const response = await page.goto("/admin");
    expect(firstRedirect(response)?.url()).toMatch(/\/admin$/);
    expect(await firstRedirect(response)?.response().then((r) => r?.status())).toBe(307);
    await expect(page).toHaveURL("/signin?callbackUrl=%2Fadmin");
    await expect(page.getByRole("heading", { name: "Sign in to Contact Sheet" })).toBeVisible();

    await submitSignInForm(page, editor);
    await expect(page).toHaveURL("/admin");
    await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
    await expect(page.getByTestId("user-menu")).toContainText(editor.name);
  });

  test("is sent from /admin/users to sign in, and lands back on /admin/users after signing in", async ({ page }) => {
    const response = await page.goto("/admin/users");
    expect(await firstRedirect(response)?.response().then((r) => r?.status())).toBe(307);
    await expect(page).toHaveURL("/signin?callbackUrl=%2Fadmin%2Fusers");

    await submitSignInForm(page, E2E_ADMIN);
    await expect(page).toHaveURL("/admin/users");
    await expect(page.getByRole("heading", { name: "Users", level: 1 })).toBeVisible();
    await expect(page.getByTestId(`user-row-${E2E_ADMIN.email}`)).toBeVisible();
  });

  // Its 401 JSON answer from /api/photos (to a request and to a browser's navigation) is in tests/page-refusals.test.ts.
});

test.describe("a viewer", () => {
  test("sees their name and role, no Admin link, and the 403 page on admin pages", async ({ page, browser }) => {
    const viewer = await createUser(browser, "viewer");
    await signIn(page, viewer);

    const menu = page.getByTestId("user-menu");
    await expect(menu).toContainText(viewer.name);
    await expect(page.getByTestId("user-role")).toHaveText("viewer");
    await expect(menu.getByRole("button", { name: "Sign out" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Admin" })).toHaveCount(0);
    await screenshot(page, "viewer-gallery");

    // Signed in, the photos API answers them (no longer 401).
    const photos = await page.request.get("/api/photos");
    expect(photos.status()).toBe(200);
    expect((await photos.json()).viewer).toMatchObject({ name: viewer.name, role: "viewer" });

    await expectForbiddenPage(page, "/admin");
    await screenshot(page, "viewer-forbidden");
    await expectForbiddenPage(page, "/admin/users");
    // Still signed in on the 403 page.
    await expect(page.getByTestId("user-role")).toHaveText("viewer");
  });
});

test.describe("an editor", () => {
  test("uses the dashboard, but gets the 403 page on /admin/users", async ({ page, browser }) => {
    const editor = await createUser(browser, "editor");
    await signIn(page, editor);
    await expect(page.getByTestId("user-role")).toHaveText("editor");

    await page.getByTestId("user-menu").getByRole("link", { name: "Admin" }).click();
    await expect(page).toHaveURL("/admin");
    await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
    await expect(page.getByText(`Signed in as ${editor.name} (editor).`)).toBeVisible();
    const adminNav = page.getByRole("navigation", { name: "Admin" });
    await expect(adminNav.getByRole("link", { name: "Dashboard" })).toBeVisible();
    // Editors are not shown the user management link or the user count.
    await expect(adminNav.getByRole("link", { name: "Users" })).toHaveCount(0);
    await expect(page.getByTestId("user-count")).toHaveCount(0);
    await screenshot(page, "editor-dashboard");

    const dashboard = await page.goto("/admin");
    expect(dashboard?.status()).toBe(200);

    await expectForbiddenPage(page, "/admin/users");
    await expect(page.getByTestId("user-role")).toHaveText("editor");
  });
});

test.describe("the 403 page", () => {
  test("keeps its own document title once the page has loaded", async ({ page, browser }) => {
    const viewer = await createUser(browser, "viewer");
    await signIn(page, viewer);
    for (const path of ["/admin/users", "/admin"]) {
      const response = await page.goto(path);
      expect(response?.status()).toBe(403);
      // The header's session is fetched after hydration: by then React has applied the page's metadata.
      await expect(page.getByTestId("user-menu")).toBeVisible();
      await expect(page.getByTestId("forbidden-message")).toBeVisible();
      await expect(page).toHaveTitle("403: An unexpected error has occurred", { timeout: 2_000 });
    }
  });
});

test.describe("an admin", () => {
  test("sees the dashboard with the user count and the Users link", async ({ page }) => {
    await signIn(page, E2E_ADMIN, { callbackPath: "/admin" });
    await expect(page.getByTestId("user-role")).toHaveText("admin");
    await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
    await expect(page.getByTestId("user-count")).toHaveText(/^[1-9]\d*$/);
    await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Users" }).click();
    await expect(page).toHaveURL("/admin/users");
    await expect(page.getByTestId(`user-row-${E2E_ADMIN.email}`)).toContainText("(you)");
    await screenshot(page, "admin-users");
  });
});
