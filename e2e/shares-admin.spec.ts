import fs from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { createUser, E2E_BASE_URL, signIn, toast } from "./helpers";
import { TOUR_SIZES, TOUR_THEMES } from "./page-tour";

// The owner's side of share links: an editor makes a password link from a library selection and a
// link from an album's editor page, edits the first (expiry "never", a view limit) and revokes it.
// Screenshots of /admin/shares, a link's page and the "Share…" dialog at both sizes and themes.
const CORPUS_JPEGS = path.resolve("../shared/corpus/exif-samples/jpg");
const FILES = ["mobile/jolla.jpg", "tests/28-hex_value.jpg", "hdr/iphone_hdr_YES.jpg"];
const SCREENSHOT_DIRECTORY = path.resolve("test-results/screenshots");
const headers = { Origin: E2E_BASE_URL };

async function eachSizeAndTheme(page: Page, name: string, show: () => Promise<void>): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIRECTORY, { recursive: true });
  for (const size of TOUR_SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    for (const theme of TOUR_THEMES) {
      await page.emulateMedia({ colorScheme: theme });
      await show();
      await page.screenshot({ path: path.join(SCREENSHOT_DIRECTORY, `${name}-${size.name}-${theme}.png`), fullPage: true, animations: "disabled" });
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: "light" });
}

test("an editor shares a library selection and an album, edits a link and revokes it", async ({ browser }) => {
  test.setTimeout(240_000);
  const editor = await createUser(browser, "editor");
  const context = await browser.newContext({ permissions: ["clipboard-read", "clipboard-write"] });
  const page = await context.newPage();
  await signIn(page, editor, { callbackPath: "/admin/photos" });
  const ids: string[] = [];
  for (const file of FILES) {
    const uploaded = await page.request.post("/api/upload", {
      headers,
      multipart: { file: { name: path.basename(file), mimeType: "image/jpeg", buffer: fs.readFileSync(path.join(CORPUS_JPEGS, file)) } },
    });
    expect(uploaded.status(), await uploaded.text()).toBe(201);
    ids.push(((await uploaded.json()) as { photos: Array<{ id: string }> }).photos[0].id);
  }
  for (const id of ids) {
    await expect
      .poll(async () => ((await (await page.request.get(`/api/photos/${id}`)).json()) as { photo: { status: string } }).photo.status, { timeout: 90_000 })
      .toBe("ready");
  }

  // From the library: two photos selected, "Share…", a title and a password.
  await page.goto("/admin/photos");
  const tiles = page.getByRole("listbox", { name: "Photos" }).getByRole("option");
  await expect(tiles).toHaveCount(3);
  await tiles.nth(0).click();
  await tiles.nth(1).click({ modifiers: ["Shift"] });
  await expect(page.getByTestId("library-selection")).toHaveText("2 of 3 selected");
  await page.getByRole("button", { name: "Share…" }).click();
  const dialog = page.getByRole("dialog", { name: "Share 2 photos" });
  await expect(dialog.getByLabel("Title")).toHaveValue("2 shared photos");
  // The default expiry is 30 days; "never" is a choice of its own.
  await expect(dialog.getByRole("radio", { name: "In 30 days" })).toBeChecked();
  await expect(dialog.getByRole("radio", { name: /^Never/ })).not.toBeChecked();
  await expect(dialog.getByRole("checkbox", { name: "See where photos were taken" })).not.toBeChecked();
  await dialog.getByLabel("Title").fill("Proofs for Ana");
  await dialog.getByLabel("Message").fill("Pick your favourites by Friday.");
  await dialog.getByRole("checkbox", { name: "Ask visitors for a password" }).check();
  await dialog.getByLabel("Password", { exact: true }).fill("tiles and trams");
  await dialog.getByLabel("Downloads").selectOption("copy");
  await dialog.getByRole("checkbox", { name: "Pick favourites and comment" }).check();
  await eachSizeAndTheme(page, "share-dialog", async () => {
    await expect(dialog).toBeVisible();
  });
  await dialog.getByRole("button", { name: "Create link" }).click();
  const link = dialog.getByLabel("Share link");
  await expect(link).toHaveValue(new RegExp(`^${E2E_BASE_URL}/s/[A-Za-z0-9_-]{24}$`));
  await expect(dialog).toContainText("opens 2 photos");
  await eachSizeAndTheme(page, "share-dialog-created", async () => {
    await expect(link).toBeVisible();
  });
  await dialog.getByRole("button", { name: "Copy link" }).click();
  await expect(toast(page, "Link copied")).toBeVisible();
  const url = await link.inputValue();
  await dialog.getByRole("link", { name: "Open link settings" }).click();

  // Its page: the link, the numbers, then edit: never expires, at most five browsers.
  await expect(page).toHaveURL(/\/admin\/shares\/[0-9a-f-]+$/);
  await expect(page.getByRole("heading", { level: 1, name: "Proofs for Ana" })).toBeVisible();
  await expect(page.locator(".share-url")).toHaveText(url);
  await expect(page.getByRole("navigation", { name: "This link" }).getByRole("link", { name: "Settings & activity" })).toHaveAttribute("aria-current", "page");
  const settings = page.getByRole("form", { name: "Link settings" });
  await settings.getByRole("radio", { name: /^Never/ }).check();
  await settings.getByLabel("View limit").fill("5");
  await settings.getByRole("button", { name: "Save settings" }).click();
  await expect(toast(page, "Settings saved")).toBeVisible();
  await expect(page.getByText("Never expires")).toBeVisible();
  await expect(page.locator(".stat").filter({ hasText: "Views / limit" })).toContainText("0 / 5");
  // The password: changed (everyone admitted before must enter the new one).
  const password = page.getByRole("form", { name: "Password" });
  await password.getByLabel("New password", { exact: true }).fill("a new secret");
  await password.getByRole("button", { name: "Change password" }).click();
  await expect(toast(page, /Password changed/)).toBeVisible();
  const shareId = page.url().split("/").at(-1)!;
  await eachSizeAndTheme(page, "admin-share", async () => {
    await page.goto(`/admin/shares/${shareId}`);
  });

  // From an album's editor page.
  const album = await page.request.post("/api/albums", { headers, data: { title: `Lisbon ${Date.now() % 100000}` } });
  expect(album.status(), await album.text()).toBe(201);
  const { album: made } = (await album.json()) as { album: { id: string; title: string } };
  expect((await page.request.post(`/api/albums/${made.id}/photos`, { headers, data: { photoIds: ids } })).status()).toBe(200);
  await page.goto(`/admin/albums/${made.id}`);
  await page.getByRole("button", { name: "Share…" }).click();
  const albumDialog = page.getByRole("dialog", { name: "Share this album" });
  await expect(albumDialog.getByLabel("Title")).toHaveValue(made.title);
  await albumDialog.getByRole("button", { name: "Create link" }).click();
  await expect(albumDialog.getByLabel("Share link")).toHaveValue(/\/s\/[A-Za-z0-9_-]{24}$/);
  await expect(albumDialog).toContainText("opens 3 photos");
  await albumDialog.getByRole("button", { name: "Done" }).click();

  // Both in the list; then revoke the first, with a confirm.
  await page.goto("/admin/shares");
  const rows = page.locator(".shares-table tbody tr");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText(made.title);
  await expect(rows.nth(1)).toContainText("Proofs for Ana");
  await expect(rows.nth(1)).toContainText("0 / 5");
  await eachSizeAndTheme(page, "admin-shares", async () => {
    await page.goto("/admin/shares");
  });
  await rows.nth(1).getByRole("link", { name: "Proofs for Ana", exact: true }).click();
  await page.getByRole("button", { name: "Revoke link" }).click();
  const confirm = page.getByRole("dialog", { name: "Revoke this link?" });
  await confirm.getByRole("button", { name: "Revoke link" }).click();
  await expect(toast(page, "Link revoked")).toBeVisible();
  await expect(page.locator(".share-admin-header .badge")).toHaveText("Revoked");
  await expect(page.getByRole("button", { name: "Revoke link" })).toHaveCount(0);
  await page.goto("/admin/shares");
  await expect(rows.nth(1).locator(".badge")).toHaveText("Revoked");
  await expect(rows.nth(0).locator(".badge")).toHaveText("Active");
  await context.close();
});
