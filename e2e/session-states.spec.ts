import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, type Route, test } from "@playwright/test";
import { createUser, signIn } from "./helpers";

/**
 * Holds every request for /api/auth/session until release() is called, so the test decides how
 * long the session stays "loading" instead of guessing with timeouts.
 */
async function holdSessionRequests(page: Page): Promise<{ held: Promise<void>; release: () => Promise<void> }> {
  const pending: Route[] = [];
  let isReleased = false;
  let markHeld: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (markHeld = resolve));
  await page.route("**/api/auth/session", async (route) => {
    if (isReleased) return route.continue();
    pending.push(route);
    markHeld();
  });
  return {
    held,
    release: async () => {
      isReleased = true;
      await Promise.all(pending.splice(0).map((route) => route.continue()));
    },
  };
}

test.describe("the header while the session loads", () => {
  test("shows the placeholder, then the sign-in link for a signed-out visitor", async ({ page }) => {
    const session = await holdSessionRequests(page);
    await page.goto("/");
    await session.held;

    const placeholder = page.getByTestId("session-loading");
    await expect(placeholder).toBeVisible();
    await expect(placeholder).toHaveAttribute("aria-busy", "true");
    // axe sees the page in this state too when the session answers slowly (a loaded machine, a phone).
    expect((await new AxeBuilder({ page }).include("header").analyze()).violations).toEqual([]);
    await expect(page.getByTestId("sign-in-link")).toHaveCount(0);
    await expect(page.getByTestId("user-menu")).toHaveCount(0);
    await page.screenshot({ path: "test-results/screens/session-loading.png" });

    await session.release();
    await expect(page.getByTestId("sign-in-link")).toBeVisible();
    await expect(placeholder).toHaveCount(0);
  });

  test("shows the placeholder, then the user's menu for a signed-in viewer", async ({ page, browser }) => {
    const viewer = await createUser(browser, "viewer");
    await signIn(page, viewer);

    const session = await holdSessionRequests(page);
    await page.reload();
    await session.held;
    await expect(page.getByTestId("session-loading")).toBeVisible();
    await expect(page.getByTestId("user-menu")).toHaveCount(0);
    await expect(page.getByTestId("sign-in-link")).toHaveCount(0);

    await session.release();
    await expect(page.getByTestId("user-menu")).toContainText(viewer.name);
    await expect(page.getByTestId("user-role")).toHaveText("viewer");
    await expect(page.getByTestId("session-loading")).toHaveCount(0);
  });
});

test.describe("the header when the session cannot be fetched", () => {
  test("shows the sign-in link, logs CLIENT_FETCH_ERROR and reports it to /api/auth/_log", async ({ page }) => {
    const consoleErrors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
    await page.route("**/api/auth/session", (route) => route.abort("failed"));
    const logReport = page.waitForRequest(
      (request) => request.method() === "POST" && new URL(request.url()).pathname === "/api/auth/_log",
    );

    await page.goto("/");
    await expect(page.getByTestId("sign-in-link")).toBeVisible();
    await expect(page.getByTestId("session-loading")).toHaveCount(0);
    await expect(page.getByTestId("user-menu")).toHaveCount(0);

    await expect.poll(() => consoleErrors.some((text) => text.includes("CLIENT_FETCH_ERROR"))).toBe(true);

    const report = await logReport;
    const fields = new URLSearchParams(report.postData() ?? "");
    expect(fields.get("level")).toBe("error");
    expect(fields.get("code")).toBe("CLIENT_FETCH_ERROR");
    // The server accepts next-auth's report (it answers {} like next-auth does).
    const answer = await report.response();
    expect(answer?.status()).toBe(200);
  });
});
