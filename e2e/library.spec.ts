import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createUser, E2E_BASE_URL, signIn, toast } from "./helpers";
import { TOUR_SIZES, TOUR_THEMES } from "./page-tour";

// The library at /admin/photos: select with a click and a shift-click, make them public, Undo;
// move them to the trash and restore them from /admin/trash. An editor of its own, so the library
// holds exactly the photos this test uploads (the suites share one server).
const CORPUS_JPEGS = path.resolve("../shared/corpus/exif-samples/jpg");
const FILES = ["mobile/jolla.jpg", "tests/28-hex_value.jpg", "hdr/iphone_hdr_YES.jpg"];
const SCREENSHOT_DIRECTORY = path.resolve("test-results/screenshots");

test("bulk select with shift-click, make public with Undo, then trash and restore", async ({ browser }) => {
  test.setTimeout(180_000);
  const editor = await createUser(browser, "editor");
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, editor, { callbackPath: "/admin/photos" });
  for (const file of FILES) {
    const uploaded = await page.request.post("/api/upload", {
      headers: { Origin: E2E_BASE_URL },
      multipart: { file: { name: path.basename(file), mimeType: "image/jpeg", buffer: fs.readFileSync(path.join(CORPUS_JPEGS, file)) } },
    });
    expect(uploaded.status(), await uploaded.text()).toBe(201);
  }
  await page.goto("/admin/photos");
  const tiles = page.getByRole("listbox", { name: "Photos" }).getByRole("option");
  await expect(tiles).toHaveCount(3);
  await expect(page.getByTestId("library-selection")).toHaveText("3 photos");

  await tiles.nth(0).click();
  await tiles.nth(2).click({ modifiers: ["Shift"] });
  await expect(page.getByTestId("library-selection")).toHaveText("3 of 3 selected");
  for (let index = 0; index < 3; index += 1) await expect(tiles.nth(index)).toHaveAttribute("aria-selected", "true");

  await page.getByLabel("Make selected").selectOption("public");
  await expect(toast(page, "3 photos made public")).toBeVisible();
  await expect(page.locator(".library-visibility-public")).toHaveCount(3);
  await toast(page, "3 photos made public").getByRole("button", { name: "Undo" }).click();
  await expect(toast(page, "Undone: visibility put back")).toBeVisible();
  await expect(page.locator(".library-visibility-private")).toHaveCount(3);

  // Escape clears; the keyboard selects again (Ctrl+A: every tile shown).
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("library-selection")).toHaveText("3 photos");
  await tiles.nth(0).focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("Space");
  await expect(page.getByTestId("library-selection")).toHaveText("1 of 3 selected");
  await expect(page.getByRole("complementary", { name: "Photo details" })).toBeVisible();

  await page.keyboard.press("Escape");
  await page.keyboard.press("Control+a");
  await expect(page.getByTestId("library-selection")).toHaveText("3 of 3 selected");
  await page.getByRole("button", { name: "Move to trash" }).click();
  await expect(toast(page, "3 photos moved to the trash")).toBeVisible();
  await expect(tiles).toHaveCount(0);

  await page.goto("/admin/trash");
  await expect(page.locator(".trash-grid li")).toHaveCount(3);
  await page.getByRole("button", { name: "Select all" }).click();
  await page.getByRole("button", { name: "Restore", exact: true }).click();
  await expect(toast(page, "3 photos restored")).toBeVisible();
  await page.goto("/admin/photos");
  await expect(tiles).toHaveCount(3);

  // Two photos into an album, and every matching photo tagged ("select all" goes by filter).
  const album = await page.request.post("/api/albums", { headers: { Origin: E2E_BASE_URL }, data: { title: `Library picks ${Date.now()}` } });
  expect(album.status(), await album.text()).toBe(201);
  const { album: created } = (await album.json()) as { album: { id: string; title: string } };
  await page.reload();
  await tiles.nth(0).click();
  await tiles.nth(1).click({ modifiers: ["Shift"] });
  await page.getByRole("button", { name: "Album…" }).click();
  await page.getByRole("dialog").getByLabel("Album").selectOption(created.id);
  await page.getByRole("dialog").getByRole("button", { name: "Add to album" }).click();
  await expect(toast(page, `2 photos added to ${created.title}`)).toBeVisible();
  await page.goto(`/admin/photos?album=${created.id}`);
  await expect(tiles).toHaveCount(2);
  await page.goto("/admin/photos?inNoAlbum=1");
  await expect(tiles).toHaveCount(1);
  await page.goto("/admin/photos");
  await tiles.nth(0).click();
  await page.getByRole("button", { name: "Select all 3 matching" }).click();
  await page.getByRole("button", { name: "Tags…" }).click();
  await page.getByRole("dialog").getByRole("combobox").fill("Library sweep");
  await page.keyboard.press("Enter");
  await page.getByRole("dialog").getByRole("button", { name: "Add to photos" }).click();
  await expect(toast(page, "Added 1 tag to 3 photos")).toBeVisible();
  // Stars and a colour label on the same selection (every matching photo).
  await page.getByLabel("Rate selected").selectOption("4");
  await expect(toast(page, "3 photos: rated 4 stars")).toBeVisible();
  await page.getByLabel("Label selected").selectOption("green");
  await expect(toast(page, "3 photos: labelled green")).toBeVisible();
  await page.goto("/admin/photos?label=green");
  await expect(tiles).toHaveCount(3);

  // The library with one photo selected (the side panel open), and the trash with one photo in it.
  fs.mkdirSync(SCREENSHOT_DIRECTORY, { recursive: true });
  for (const size of TOUR_SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    for (const theme of TOUR_THEMES) {
      await page.emulateMedia({ colorScheme: theme });
      await page.goto("/admin/photos");
      await tiles.nth(1).click();
      await expect(page.getByRole("complementary", { name: "Photo details" })).toBeVisible();
      await page.screenshot({ path: path.join(SCREENSHOT_DIRECTORY, `admin-photos-selected-${size.name}-${theme}.png`), fullPage: true, animations: "disabled" });
    }
  }
  const [first] = await Promise.all([tiles.nth(0).getAttribute("data-photo-id")]);
  expect((await page.request.delete(`/api/photos/${first}`, { headers: { Origin: E2E_BASE_URL } })).status()).toBe(204);
  for (const size of TOUR_SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    for (const theme of TOUR_THEMES) {
      await page.emulateMedia({ colorScheme: theme });
      await page.goto("/admin/trash");
      await page.screenshot({ path: path.join(SCREENSHOT_DIRECTORY, `admin-trash-editor-${size.name}-${theme}.png`), fullPage: true, animations: "disabled" });
    }
  }
  await context.close();
});
