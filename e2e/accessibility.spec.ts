import AxeBuilder from "@axe-core/playwright";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { newAdminContext } from "./helpers";
import { type SignInState, TOUR_SIZES, TOUR_THEMES, tourVisits } from "./page-tour";
import { seedPublicPhotos } from "./seed-photos";

// WCAG 2.2 AA: every level-A and level-AA rule axe-core knows, up to 2.2.
const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

type AxeResults = Awaited<ReturnType<AxeBuilder["analyze"]>>;

let photoId = "";

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  [photoId] = await seedPublicPhotos(browser, 3);
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

for (const { page: tourPage, state } of tourVisits()) {
  test(`${tourPage.name} (${state}) has no WCAG 2.2 AA violations in either theme, on desktop and phone`, async ({ browser }) => {
    test.setTimeout(90_000);
    const page = await openPage(browser, state);
    const problems: string[] = [];
    try {
      for (const size of TOUR_SIZES) {
        await page.setViewportSize({ width: size.width, height: size.height });
        for (const theme of TOUR_THEMES) {
          await page.emulateMedia({ colorScheme: theme });
          const response = await page.goto(tourPage.path(photoId));
          expect(response, `${tourPage.path(photoId)} answered`).not.toBeNull();
          await page.waitForLoadState("networkidle");
          const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
          problems.push(...describeViolations(`${size.name} ${theme} ${page.url()}`, results.violations));
        }
      }
    } finally {
      await page.context().close();
    }
    expect(problems, `axe found ${problems.length} violation(s):\n${problems.join("\n")}`).toEqual([]);
  });
}
