import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { type Browser, expect, type Page, test, type TestInfo } from "@playwright/test";
import { newAdminContext, settleAnimations } from "./helpers";
import { type SignInState, type TourIds, TOUR_SIZES, TOUR_THEMES, tourVisits } from "./page-tour";
import { readSeededTour } from "./seeded-tour";

// WCAG 2.2 AA: every level-A and level-AA rule axe-core knows, up to 2.2.
const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

type AxeResults = Awaited<ReturnType<AxeBuilder["analyze"]>>;

// The tour's screenshots are taken here, in the same visits axe audits (a second tour only for
// pictures cost about a third of the e2e run): attached to the Playwright report and kept under
// test-results/screenshots/ for a person to look through.
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

/** One violation per line: rule, impact, what it means, and every element it was found on. */
function describeViolations(where: string, violations: AxeResults["violations"]): string[] {
  return violations.map((violation) => {
    const targets = violation.nodes.map((node) => node.target.join(" ")).join(" | ");
    return `[${where}] ${violation.id} (${violation.impact ?? "?"}): ${violation.help}\n    on: ${targets}\n    ${violation.helpUrl}`;
  });
}

type TourSize = (typeof TOUR_SIZES)[number];
type TourTheme = (typeof TOUR_THEMES)[number];

// Enough for a person to judge a page's layout; the API reference is tens of thousands of pixels
// long, and a picture of all of it took longer than its four audits on a loaded machine.
const SCREENSHOT_MAX_HEIGHT = 6000;

/** A picture of what the visit shows (the whole page, up to a height), named by page, size and theme. */
async function keepScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const { width, height } = await page.evaluate(() => ({ width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight }));
  const clip = { x: 0, y: 0, width, height: Math.min(height, SCREENSHOT_MAX_HEIGHT) };
  const body = await page.screenshot({ fullPage: true, clip, animations: "disabled" });
  fs.writeFileSync(path.join(SCREENSHOT_DIRECTORY, name), body);
  await testInfo.attach(name, { body, contentType: "image/png" });
}

/**
 * Visits once per size given and audits it in each theme (switched in place: the site follows the
 * system's scheme live; a load took 1.4-4.2 s beside axe's 1.3-3.2 s on a loaded machine), runs axe each
 * time, and answers the violations found. `afterVisit` runs before the audit (the tour keeps its
 * screenshot there).
 */
async function auditEverywhere(
  page: Page,
  sizes: ReadonlyArray<TourSize>,
  visit: () => Promise<void>,
  afterVisit?: (size: TourSize, theme: TourTheme) => Promise<void>,
): Promise<string[]> {
  const problems: string[] = [];
  for (const size of sizes) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.emulateMedia({ colorScheme: TOUR_THEMES[0] });
    await visit();
    for (const theme of TOUR_THEMES) {
      if (theme !== TOUR_THEMES[0]) await page.emulateMedia({ colorScheme: theme });
      // The switch's colour transitions, and any toast, settle before the picture and the audit.
      await settleAnimations(page);
      await afterVisit?.(size, theme);
      const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
      problems.push(...describeViolations(`${size.name} ${theme} ${page.url()}`, results.violations));
    }
  }
  return problems;
}

function expectNoViolations(problems: string[]): void {
  expect(problems, `axe found ${problems.length} violation(s):\n${problems.join("\n")}`).toEqual([]);
}

for (const { page: tourPage, state } of tourVisits()) {
  test(`${tourPage.name} (${state}) has no WCAG 2.2 AA violations in either theme, on desktop and phone`, async ({ browser }, testInfo) => {
    // Four audits and screenshots of one page; the API reference is long, and beside a second
    // worker on 2 cores its four audits took over 90 s.
    test.setTimeout(180_000);
    const page = await openPage(browser, state);
    // Signed-out pages keep the short name; the signed-in view of a page both can see is marked.
    const suffix = state === "signed-in" && !tourPage.needsSignIn ? "-signed-in" : "";
    try {
      const problems = await auditEverywhere(
        page,
        TOUR_SIZES,
        async () => {
          const response = await page.goto(tourPage.path(tourIds));
          expect(response, `${tourPage.path(tourIds)} answered`).not.toBeNull();
          await page.waitForLoadState("networkidle");
        },
        (size, theme) => keepScreenshot(page, testInfo, `${tourPage.name}${suffix}-${size.name}-${theme}.png`),
      );
      expectNoViolations(problems);
    } finally {
      await page.context().close();
    }
  });
}

// What only shows after a click: the full-screen viewer, the phone's header menu and the dialogs.
const OPEN_STATES: Array<{ name: string; path: (ids: TourIds) => string; open: (page: Page) => Promise<void> }> = [
  {
    name: "the full-screen viewer",
    path: ({ photoId }) => `/p/${photoId}`,
    open: async (page) => {
      await page.locator(".photo-stage-button").click();
      await expect(page.locator(".pswp__item[aria-hidden='false'] img.pswp__img:not(.pswp__img--placeholder)")).toBeVisible();
    },
  },
  {
    name: "the delete-photo confirmation",
    path: ({ photoId }) => `/p/${photoId}`,
    open: async (page) => {
      await page.getByRole("button", { name: /^Delete/ }).click();
      await expect(page.getByRole("dialog", { name: "Delete this photo?" })).toBeVisible();
    },
  },
  {
    name: "the album editor's photo picker",
    path: ({ albumId }) => `/admin/albums/${albumId}`,
    open: async (page) => {
      await page.getByRole("button", { name: "Add photos", exact: true }).click();
      await expect(page.getByRole("dialog", { name: /^Add photos to/ }).getByRole("checkbox").first()).toBeVisible();
    },
  },
  {
    name: "the album editor's selection toolbar",
    path: ({ albumId }) => `/admin/albums/${albumId}`,
    open: async (page) => {
      await page.getByRole("checkbox", { name: /^Select / }).first().check();
      await expect(page.getByRole("toolbar", { name: "Selected photos" })).toBeVisible();
    },
  },
  {
    name: "the reset-password dialog",
    path: () => "/admin/users",
    open: async (page) => {
      await page.getByRole("button", { name: "Reset password" }).first().click();
      await expect(page.getByRole("dialog")).toBeVisible();
    },
  },
];

for (const state of OPEN_STATES) {
  test(`${state.name} has no WCAG 2.2 AA violations in either theme, on desktop and phone`, async ({ browser }) => {
    test.setTimeout(90_000);
    const page = await openPage(browser, "signed-in");
    try {
      const problems = await auditEverywhere(page, TOUR_SIZES, async () => {
        await page.goto(state.path(tourIds));
        await state.open(page);
      });
      expectNoViolations(problems);
    } finally {
      await page.context().close();
    }
  });
}

test("the header's menu on a phone has no WCAG 2.2 AA violations in either theme", async ({ browser }) => {
  const page = await openPage(browser, "signed-in");
  try {
    const phone = TOUR_SIZES.filter((size) => size.name === "phone");
    const problems = await auditEverywhere(page, phone, async () => {
      await page.goto("/");
      await page.getByTestId("account-menu-button").click();
      await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
    });
    expectNoViolations(problems);
  } finally {
    await page.context().close();
  }
});
