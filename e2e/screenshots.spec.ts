import fs from "node:fs";
import path from "node:path";
import { type Browser, type Page, test } from "@playwright/test";
import { newAdminContext } from "./helpers";
import { type SignInState, type TourIds, TOUR_SIZES, TOUR_THEMES, tourVisits } from "./page-tour";
import { readSeededTour } from "./seeded-tour";

// Every page at desktop and phone size in both themes, attached to the Playwright report and kept
// under test-results/screenshots/ for a person to look through.
const SCREENSHOT_DIRECTORY = path.resolve("test-results/screenshots");

let tourIds: TourIds;

// Each test opens its own page on the seeded state and changes nothing: with two workers they
// spread over both (the longest file would otherwise hold one worker while the other runs out of work).
test.describe.configure({ mode: "parallel" });

test.beforeAll(() => {
  tourIds = readSeededTour().tourIds;
  fs.mkdirSync(SCREENSHOT_DIRECTORY, { recursive: true });
});

async function openPage(browser: Browser, state: SignInState): Promise<Page> {
  const context = state === "signed-in" ? await newAdminContext(browser) : await browser.newContext();
  return context.newPage();
}

for (const { page: tourPage, state } of tourVisits()) {
  test(`${tourPage.name} (${state}) at desktop and phone size, light and dark`, async ({ browser }, testInfo) => {
    test.setTimeout(90_000);
    const page = await openPage(browser, state);
    try {
      for (const size of TOUR_SIZES) {
        await page.setViewportSize({ width: size.width, height: size.height });
        for (const theme of TOUR_THEMES) {
          await page.emulateMedia({ colorScheme: theme });
          await page.goto(tourPage.path(tourIds));
          await page.waitForLoadState("networkidle");
          // Signed-out pages keep the short name; the signed-in view of a page both can see is marked.
          const suffix = state === "signed-in" && !tourPage.needsSignIn ? "-signed-in" : "";
          const name = `${tourPage.name}${suffix}-${size.name}-${theme}.png`;
          const body = await page.screenshot({ fullPage: true, animations: "disabled" });
          fs.writeFileSync(path.join(SCREENSHOT_DIRECTORY, name), body);
          await testInfo.attach(name, { body, contentType: "image/png" });
        }
      }
    } finally {
      await page.context().close();
    }
  });
}
