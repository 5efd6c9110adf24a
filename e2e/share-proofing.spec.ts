import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { newAdminContext, toast } from "./helpers";
import { seedProofingShare } from "./seed-proofing";
import { readSeededTour } from "./seeded-tour";
import { TOUR_SIZES, TOUR_THEMES } from "./page-tour";

// The owner's side of proofing: the dashboard's "New selections", the selections page with two
// visitors' picks and comments, and the lock; screenshots at desktop and phone size in both themes.
const SCREENSHOT_DIRECTORY = path.resolve("test-results/screenshots");

let shareId: string;

test.beforeAll(async () => {
  // A proofing share of its own: this spec locks it, and the page tour shows the seeded one.
  shareId = await seedProofingShare(readSeededTour().photoIds);
  fs.mkdirSync(SCREENSHOT_DIRECTORY, { recursive: true });
});

test("the owner sees new selections, each visitor's picks and comments, and locks the selection", async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await newAdminContext(browser);
  const page = await context.newPage();
  try {
    await page.goto("/admin");
    const card = page.getByRole("region", { name: "New selections" });
    await expect(card.getByRole("link", { name: /Margaux Delacroix sent picks/ })).toBeVisible();
    for (const size of TOUR_SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      for (const theme of TOUR_THEMES) {
        await page.emulateMedia({ colorScheme: theme });
        await page.goto("/admin");
        await page.waitForLoadState("networkidle");
        fs.writeFileSync(path.join(SCREENSHOT_DIRECTORY, `admin-new-selections-${size.name}-${theme}.png`), await page.screenshot({ fullPage: true, animations: "disabled" }));
      }
    }
    for (const size of TOUR_SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      for (const theme of TOUR_THEMES) {
        await page.emulateMedia({ colorScheme: theme });
        await page.goto(`/admin/shares/${shareId}/selections`);
        await page.waitForLoadState("networkidle");
        fs.writeFileSync(path.join(SCREENSHOT_DIRECTORY, `admin-share-selections-${size.name}-${theme}.png`), await page.screenshot({ fullPage: true, animations: "disabled" }));
      }
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    const visitors = page.getByTestId("selection-visitor");
    await expect(visitors).toHaveCount(2);
    await expect(visitors.first().getByRole("list", { name: "Margaux Delacroix's picks" }).getByRole("listitem")).toHaveCount(3);
    await expect(page.getByText("A print of this for the hallway, please.")).toBeVisible();
    // Opened once: no longer new on the dashboard.
    await page.goto("/admin");
    await expect(page.getByText("No visitor has sent a selection since you last looked.")).toBeVisible();

    await page.goto(`/admin/shares/${shareId}/selections`);
    await page.getByRole("button", { name: "Lock selection" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Lock selection" }).click();
    await expect(toast(page, /Selection locked/)).toBeVisible();
    await expect(page.getByText("Locked", { exact: true })).toBeVisible();
    await page.getByRole("button", { name: "Unlock" }).click();
    await expect(page.getByRole("button", { name: "Lock selection" })).toBeVisible();

    const csv = await page.request.get(`/api/shares/${shareId}/selections.csv`);
    expect(await csv.text()).toContain("Margaux Delacroix,margaux@example.test");
  } finally {
    await context.close();
  }
});
