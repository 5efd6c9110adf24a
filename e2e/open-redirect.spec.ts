import { expect, test } from "@playwright/test";
import { createUser, E2E_BASE_URL, submitSignInForm } from "./helpers";

// The last ones resolve to a path that starts with "//" (another host to a browser) only once
// dot segments or percent-encoding are undone (SECURITY.md 36).
const HOSTILE_CALLBACKS = [
  "https://evil.example",
  "//evil.example",
  "/\\evil.example",
  "/.//evil.example",
  "/..//evil.example",
  "/%2e//evil.example",
  "/%2F%2Fevil.example",
  "/%5Cevil.example",
  `${E2E_BASE_URL}/.//evil.example`,
];

for (const callbackUrl of HOSTILE_CALLBACKS) {
  test(`signing in with callbackUrl=${callbackUrl} stays on our own site`, async ({ page, browser }) => {
    const viewer = await createUser(browser, "viewer");
    const offSiteRequests: string[] = [];
    page.on("request", (request) => {
      if (!request.url().startsWith(`${E2E_BASE_URL}/`)) offSiteRequests.push(request.url());
    });

    await page.goto(`/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`);
    await submitSignInForm(page, viewer);
    await expect(page.getByTestId("user-menu")).toContainText(viewer.name);
    await expect(page).toHaveURL(`${E2E_BASE_URL}/`);
    expect(new URL(page.url()).origin).toBe(E2E_BASE_URL);

    // Already signed in, the sign-in page redirects at once: also to our own origin, with the
    // address typed as it is (not percent-encoded), as a link in a phishing mail would carry it.
    await page.goto(`/signin?callbackUrl=${callbackUrl}`);
    await expect(page).toHaveURL(`${E2E_BASE_URL}/`);
    await expect(page.getByTestId("user-menu")).toBeVisible();

    expect(offSiteRequests.filter((url) => url.includes("evil.example"))).toEqual([]);
  });
}
