import fs from "node:fs";
import path from "node:path";
import { type Browser, type BrowserContext, expect, type Locator, type Page } from "@playwright/test";
import { E2E_ADMIN, E2E_BASE_URL, E2E_DATA_DIRECTORY } from "./constants";

export { E2E_ADMIN, E2E_BASE_URL };

export type Role = "viewer" | "editor" | "admin";

export interface TestUser {
  id: string;
  email: string;
  password: string;
  name: string;
  role: Role;
}

let uniqueCounter = 0;

/** A fresh e-mail address no other test (or earlier run) has used. */
export function uniqueEmail(label: string): string {
  uniqueCounter += 1;
  return `${label}-${Date.now()}-${uniqueCounter}@example.test`;
}

/**
 * Signs in through the real sign-in page. Goes to `/signin?callbackUrl=<callbackPath>` unless the
 * page is already on the sign-in page, fills the form and waits until the header shows the user's
 * menu on the page they asked for.
 */
export async function signIn(
  page: Page,
  user: { email: string; password: string },
  options: { callbackPath?: string; expectedPath?: string | RegExp } = {},
): Promise<void> {
  const callbackPath = options.callbackPath ?? "/";
  await page.goto(`/signin?callbackUrl=${encodeURIComponent(callbackPath)}`);
  await submitSignInForm(page, user);
  const expectedPath = options.expectedPath ?? callbackPath;
  await expect(page).toHaveURL((url) =>
    typeof expectedPath === "string" ? url.pathname + url.search === expectedPath : expectedPath.test(url.pathname + url.search),
  );
  await expect(page.getByTestId("user-menu")).toBeVisible();
}

/** Fills and submits the sign-in form on the page that is open now (no waiting for the outcome). */
export async function submitSignInForm(page: Page, user: { email: string; password: string }): Promise<void> {
  const form = page.getByRole("form", { name: "Sign in with e-mail and password" });
  await form.getByLabel("E-mail", { exact: true }).fill(user.email);
  await form.getByLabel("Password", { exact: true }).fill(user.password);
  await form.getByRole("button", { name: "Sign in" }).click();
}

/** The inline error on the sign-in page (the one place it is said). */
export function signInError(page: Page): Locator {
  return page.locator("main").getByRole("alert");
}

/** A react-hot-toast toast with this text (every toast, success or error, is a `role="status"`). */
export function toast(page: Page, text: string | RegExp): Locator {
  return page.getByRole("status").filter({ hasText: text });
}

/**
 * Waits until no finite CSS animation or transition runs (a toast fading in or out, a button's
 * colours after a theme switch): axe judges contrast at the opacity of the moment, and a
 * half-faded toast is not what a reader is left looking at. Infinite ones (a spinner) are left.
 */
export async function settleAnimations(page: Page): Promise<void> {
  await page.evaluate(async () => {
    // A style change made just now starts its transitions at the next style recalculation.
    void getComputedStyle(document.documentElement).color;
    await new Promise(requestAnimationFrame);
    const finite = document.getAnimations().filter((animation) => animation.playState === "running" && Number.isFinite(animation.effect?.getComputedTiming().endTime ?? Infinity));
    await Promise.all(finite.map((animation) => animation.finished.catch(() => undefined)));
  });
}

type StorageState = Awaited<ReturnType<BrowserContext["storageState"]>>;

// One signed-in admin session per server run, kept as storage state and reused to call the admin
// API: in memory per worker, and in the server's data folder (emptied at each start) for the workers
// after the first, so two workers under load do not each wait on a sign-in.
let adminStorageState: StorageState | null = null;
const ADMIN_STATE_FILE = path.resolve(E2E_DATA_DIRECTORY, "admin-state.json");

function readSavedAdminState(): StorageState | null {
  try {
    return JSON.parse(fs.readFileSync(ADMIN_STATE_FILE, "utf8")) as StorageState;
  } catch {
    return null;
  }
}

function saveAdminState(state: StorageState): void {
  // Written whole under another name, then renamed: another worker never reads half a file.
  const partial = `${ADMIN_STATE_FILE}.${process.pid}`;
  fs.writeFileSync(partial, JSON.stringify(state));
  fs.renameSync(partial, ADMIN_STATE_FILE);
}

/** A new browser context signed in as the e2e admin (through the sign-in page once per server run). */
export async function newAdminContext(browser: Browser): Promise<BrowserContext> {
  adminStorageState ??= readSavedAdminState();
  if (adminStorageState) {
    const context = await browser.newContext({ storageState: adminStorageState });
    // A stored session can only go stale if a test signs the admin out everywhere; check it still works.
    const check = await context.request.get("/api/admin/users");
    if (check.ok()) return context;
    await context.close();
  }
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, E2E_ADMIN, { callbackPath: "/admin" });
  await page.close();
  adminStorageState = await context.storageState();
  saveAdminState(adminStorageState);
  return context;
}

/** Creates a user through the admin API (POST /api/admin/users) as the e2e admin. */
export async function createUser(
  browser: Browser,
  role: Role,
  overrides: Partial<Pick<TestUser, "email" | "name" | "password">> = {},
): Promise<TestUser> {
  const email = overrides.email ?? uniqueEmail(role);
  const name = overrides.name ?? `${role[0].toUpperCase()}${role.slice(1)} ${Date.now() % 100000}`;
  const password = overrides.password ?? `pw-${role}-${Date.now()}`;
  const context = await newAdminContext(browser);
  try {
    const response = await context.request.post("/api/admin/users", {
      data: { email, name, role, password },
      headers: { Origin: E2E_BASE_URL },
    });
    expect(response.status(), await response.text()).toBe(201);
    const body = (await response.json()) as { user: { id: string; email: string; role: Role } };
    expect(body.user).toMatchObject({ email, role });
    return { id: body.user.id, email, password, name, role };
  } finally {
    await context.close();
  }
}

/** Saves a screenshot under test-results/screens/ for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });
}
