import fs from "node:fs";
import path from "node:path";
import { type Browser, type Page, test } from "@playwright/test";
import { newAdminContext } from "./helpers";
import { type SignInState, type TourIds, TOUR_SIZES, TOUR_THEMES, tourVisits } from "./page-tour";
import { seedTourAlbum } from "./seed-albums";
import { seedProofingShare } from "./seed-proofing";
import { seedPublicPhotos } from "./seed-photos";

// Every page at desktop and phone size in both themes, attached to the Playwright report and kept
// under test-results/screenshots/ for a person to look through.
const SCREENSHOT_DIRECTORY = path.resolve("test-results/screenshots");

let tourIds: TourIds;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  const photoIds = await seedPublicPhotos(browser, 4);
  tourIds = { ...(await seedTourAlbum(browser, photoIds)), shareId: await seedProofingShare(photoIds) };
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
