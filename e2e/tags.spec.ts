import { expect, test } from "@playwright/test";
import { E2E_BASE_URL, newAdminContext, screenshot, toast } from "./helpers";
import { seedPublicPhotos } from "./seed-photos";

// Tags end to end: the editor's chips input with autocomplete (by keyboard), the tags on the
// photo's page, and a visitor finding the photo through /tags and the tag's own page.

test("an editor tags a photo with autocomplete; a visitor finds it through /tags and the tag's page", async ({ browser }) => {
  test.setTimeout(180_000);
  const [photoId] = await seedPublicPhotos(browser, 2);
  const admin = await newAdminContext(browser);
  const page = await admin.newPage();
  try {
    await page.goto(`/p/${photoId}`);
    const input = page.getByRole("combobox", { name: "Tags" });
    await expect(input).toBeVisible();
    // The seeded tags are there as chips; take "Long exposure" off with Backspace.
    const chips = page.getByRole("list", { name: "Tags, chosen" });
    await expect(chips.getByRole("listitem")).toHaveText(["Café", "Long exposure", "Travel"]);
    await input.click();
    await page.keyboard.press("Backspace");
    await expect(chips.getByRole("listitem")).toHaveText(["Café", "Long exposure"]);

    // Autocomplete: "trav" suggests the existing "Travel"; arrow down and Enter add it as spelled.
    await input.fill("trav");
    const suggestion = page.getByRole("option", { name: "Travel" });
    await expect(suggestion).toBeVisible();
    await page.keyboard.press("ArrowDown");
    await expect(suggestion).toHaveAttribute("aria-selected", "true");
    // The input with its suggestions open, at desktop and phone size in both themes.
    for (const [size, width] of [["desktop", 1440], ["phone", 390]] as const) {
      await page.setViewportSize({ width, height: 900 });
      for (const theme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: theme });
        await expect(suggestion).toBeVisible();
        // The field and the suggestions below it (they float over what follows, outside the field's box).
        const box = await page.locator(".tag-field").boundingBox();
        if (box) await page.screenshot({ path: `test-results/screens/tags-editor-suggestions-${size}-${theme}.png`, clip: { x: box.x, y: box.y, width: box.width, height: box.height + 120 } });
      }
    }
    await page.keyboard.press("Enter");
    // A new tag by comma; a spelling of a chosen tag is not added twice.
    await input.pressSequentially("Golden hour,CAFE\u0301,");
    await expect(chips.getByRole("listitem")).toHaveText(["Café", "Long exposure", "Travel", "Golden hour"]);
    await screenshot(page, "tags-editor-input");

    await page.getByRole("button", { name: "Save" }).click();
    await expect(toast(page, "Photo saved")).toBeVisible();
    await page.reload();
    await expect(page.getByTestId("photo-tags").getByRole("link")).toHaveText(["Café", "Golden hour", "Long exposure", "Travel"]);
  } finally {
    await admin.close();
  }

  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  try {
    await visitorPage.goto("/tags");
    const tag = visitorPage.getByTestId("tag-list").getByRole("link", { name: /Golden hour/ });
    await expect(tag).toContainText("1");
    await tag.click();
    await expect(visitorPage).toHaveURL(/\/tags\/golden%20hour$/);
    await expect(visitorPage.getByRole("heading", { level: 1, name: "Golden hour" })).toBeVisible();
    await expect(visitorPage.getByTestId("grid-photo")).toHaveCount(1);
    await visitorPage.getByTestId("grid-photo").click();
    await expect(visitorPage).toHaveURL(new RegExp(`/p/${photoId}$`));

    // Any spelling of the name leads to the tag's own address; an unknown tag is the 404 page.
    await visitorPage.goto("/tags/GOLDEN%20HOUR");
    await expect(visitorPage).toHaveURL(/\/tags\/golden%20hour$/);
    const missing = await visitorPage.goto("/tags/no-such-tag");
    expect(missing?.status()).toBe(404);
  } finally {
    await visitor.close();
  }
});

test("an admin renames a tag inline and merges two into one after confirming", async ({ browser }) => {
  test.setTimeout(180_000);
  const ids = await seedPublicPhotos(browser, 4);
  const admin = await newAdminContext(browser);
  const page = await admin.newPage();
  try {
    const tagged = await page.request.put(`/api/photos/${ids[3]}/tags`, { headers: { Origin: E2E_BASE_URL }, data: { names: ["Travel", "Dusk", "Dusky", "Evening"] } });
    expect(tagged.status(), await tagged.text()).toBe(200);
    await page.goto("/admin/tags");

    await page.getByRole("button", { name: "Rename Evening" }).click();
    const field = page.getByRole("textbox", { name: "New name for Evening" });
    await field.fill("Nightfall");
    await field.press("Enter");
    await expect(toast(page, "Renamed to “Nightfall”")).toBeVisible();
    await expect(page.getByTestId("tag-row-nightfall")).toContainText("Nightfall");

    await page.getByRole("checkbox", { name: "Select Dusk", exact: true }).check();
    await page.getByRole("checkbox", { name: "Select Dusky" }).check();
    await page.getByRole("button", { name: "Merge selected…" }).click();
    const dialog = page.getByRole("dialog", { name: "Merge 2 tags" });
    await expect(dialog.getByRole("radio", { name: /Dusk \(/ })).toBeChecked();
    await dialog.getByRole("button", { name: "Merge into “Dusk”" }).click();
    await expect(toast(page, "Merged 1 tag into “Dusk”")).toBeVisible();
    await expect(page.getByTestId("tag-row-dusky")).toHaveCount(0);
    await expect(page.getByTestId("tag-row-dusk")).toContainText("1");

    await page.goto(`/p/${ids[3]}`);
    await expect(page.getByTestId("photo-tags").getByRole("link")).toHaveText(["Dusk", "Nightfall", "Travel"]);
  } finally {
    await admin.close();
  }
});
