import { expect, test } from "@playwright/test";
import { screenshot } from "./helpers";
import { readSeededTour } from "./seeded-tour";

// Search end to end, as a visitor: the header's link, suggestions by keyboard, a query of two
// tokens, narrowing with a facet, opening a result; a bad token's message; the form without JS.

test("a visitor searches with two tokens, narrows with a facet and opens a result", async ({ browser }) => {
  test.setTimeout(180_000);
  // Tagged Travel + Café, Travel + Portrait, Travel + Café, Travel (seed-photos.ts).
  const ids = readSeededTour().photoIds;
  const visitor = await browser.newContext();
  const page = await visitor.newPage();
  try {
    await page.goto("/");
    await page.getByTestId("search-link").click();
    await expect(page).toHaveURL(/\/search$/);
    const box = page.getByRole("combobox", { name: "Search photos" });
    await expect(box).toBeVisible();

    // Suggestions as you type: the list opens, the arrows move through it, Escape closes it.
    await box.fill("trav");
    const suggestions = page.getByRole("listbox", { name: "Suggestions" });
    await expect(suggestions.getByRole("option").first()).toBeVisible();
    await page.keyboard.press("ArrowDown");
    await expect(suggestions.getByRole("option").first()).toHaveAttribute("aria-selected", "true");
    await expect(box).toHaveAttribute("aria-activedescendant", /.+/);
    await page.keyboard.press("Escape");
    await expect(suggestions).toBeHidden();
    await expect(box).toHaveAttribute("aria-expanded", "false");

    // Two tokens: a field and a free word (accents ignored).
    await box.fill("tag:travel cafe");
    await box.press("Enter");
    await expect(page).toHaveURL(/\/search\?q=tag%3Atravel\+cafe$/);
    await expect(page.getByTestId("search-chip")).toHaveCount(2);
    for (const id of [ids[0], ids[2]]) await expect(page.locator(`[data-testid="grid-photo"][href="/p/${id}"]`)).toBeVisible();
    await expect(page.locator(`[data-testid="grid-photo"][href="/p/${ids[1]}"]`)).toHaveCount(0);
    await screenshot(page, "search-two-tokens");

    // Narrow with a camera facet: its count is the number of results that follow.
    const facet = page.locator('[data-testid="search-facet"][data-token^="camera:"]').first();
    await expect(facet).toBeVisible();
    const token = (await facet.getAttribute("data-token")) ?? "";
    const count = Number(await facet.locator(".search-facet-count").innerText());
    await facet.click();
    await expect(page).toHaveURL((url) => url.searchParams.get("q") === `tag:travel cafe ${token}`);
    await expect(page.getByTestId("search-chip")).toHaveCount(3);
    await expect(page.getByTestId("grid-photo")).toHaveCount(count);

    // Removing a chip takes its term out of the box and the address.
    await page.getByRole("link", { name: /^Remove words cafe$/ }).click();
    await expect(page).toHaveURL((url) => url.searchParams.get("q") === `tag:travel ${token}`);
    await expect(box).toHaveValue(`tag:travel ${token}`);

    // Open a result: its photo page shows.
    const first = page.getByTestId("grid-photo").first();
    const href = (await first.getAttribute("href")) ?? "";
    await first.click();
    await expect(page).toHaveURL(new RegExp(`${href}$`));
    await expect(page.locator("main img").first()).toBeVisible();
  } finally {
    await visitor.close();
  }
});

test("a bad token gets a message naming it, and the page still renders", async ({ page }) => {
  await page.goto(`/search?q=${encodeURIComponent("beach year:20x9")}`);
  const problem = page.getByTestId("search-problem");
  await expect(problem).toContainText("year:20x9 is not a year (use year:2019)");
  await expect(problem.locator("mark")).toHaveText("year:20x9");
  await expect(page.getByRole("combobox", { name: "Search photos" })).toHaveValue("beach year:20x9");
  await expect(page.getByRole("combobox", { name: "Search photos" })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("How to search")).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("the form searches and a chip's link removes its term", async ({ page }) => {
    await page.goto("/search");
    await page.getByRole("combobox", { name: "Search photos" }).fill("tag:travel -tag:portrait");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL((url) => url.searchParams.get("q") === "tag:travel -tag:portrait");
    await expect(page.getByTestId("search-chip")).toHaveCount(2);
    await page.getByRole("link", { name: "Remove Not tag portrait" }).click();
    await expect(page).toHaveURL((url) => url.searchParams.get("q") === "tag:travel");
  });
});
