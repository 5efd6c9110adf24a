import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import SQLite from "better-sqlite3";
import { E2E_DATA_DIRECTORY } from "./constants";
import { createUser, E2E_BASE_URL, screenshot, settleAnimations, submitSignInForm, type TestUser, toast } from "./helpers";
import { TOUR_THEMES } from "./page-tour";

// People (issue 32) as the owner meets them, at phone and desktop size: name a person, find them
// with person: search, draw a face by hand. Seeded once: one user, the corpus portrait, and a face
// drawn through the API (running the real detector here would queue every photo of the shared e2e
// site; detection itself is tested in tests/people.test.ts).

const PORTRAIT = path.resolve("../shared/corpus/immich-test-assets/metadata/faces/portrait.jpg");
const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
const SIZES = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1440, height: 900 },
] as const;

let owner: TestUser;
/** The owner's signed-in cookies, for a test that needs no sign-in of its own. */
let ownerSession: Awaited<ReturnType<BrowserContext["storageState"]>>;

/** Signs in through the page; the first sign-in after the server starts may take longer than expect's 5 s on a busy machine. */
async function signIn(page: Page, user: TestUser): Promise<void> {
  await page.goto("/signin?callbackUrl=%2F");
  await submitSignInForm(page, user);
  await expect(page.getByTestId("user-menu")).toBeVisible({ timeout: 30_000 });
}
let photoId: string;

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  test.setTimeout(120_000);
  owner = await createUser(browser, "editor");
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await signIn(page, owner);
    ownerSession = await context.storageState();
    const upload = await page.request.post("/api/upload", {
      multipart: { file: { name: "portrait.jpg", mimeType: "image/jpeg", buffer: fs.readFileSync(PORTRAIT) } },
      headers: { Origin: E2E_BASE_URL },
    });
    expect(upload.status()).toBe(201);
    photoId = ((await upload.json()) as { photos: Array<{ id: string }> }).photos[0].id;
    await expect
      .poll(async () => ((await (await page.request.get(`/api/photos/${photoId}`)).json()) as { photo: { status: string } }).photo.status, { timeout: 60_000 })
      .toBe("ready");
    const face = await page.request.post(`/api/photos/${photoId}/faces`, {
      data: { box: { left: 0.36, top: 0.16, width: 0.28, height: 0.3 }, name: "Zelda Seeded" },
      headers: { Origin: E2E_BASE_URL },
    });
    expect(face.status(), await face.text()).toBe(201);
    // Two faces nobody has named yet, for the grid of faces to name (drawn, then their names taken away).
    for (const [index, box] of [{ left: 0.05, top: 0.05, width: 0.2, height: 0.2 }, { left: 0.7, top: 0.6, width: 0.25, height: 0.3 }].entries()) {
      const drawn = await page.request.post(`/api/photos/${photoId}/faces`, { data: { box, name: `Unnamed ${index}` }, headers: { Origin: E2E_BASE_URL } });
      expect(drawn.status(), await drawn.text()).toBe(201);
      const { face: unnamed } = (await drawn.json()) as { face: { personId: string } };
      const renamed = await page.request.patch(`/api/people/${unnamed.personId}`, { data: { name: null }, headers: { Origin: E2E_BASE_URL } });
      expect(renamed.status(), await renamed.text()).toBe(200);
    }
  } finally {
    await context.close();
  }
});

async function expectNoAxeViolations(page: Page, where: string): Promise<void> {
  await settleAnimations(page);
  // The toasts these steps raise fade out on their own clock, often during the audit, and axe then
  // judges a half-transparent one (CI failed on it twice); at rest they are react-hot-toast's
  // #363636 on white (11.9:1). The page under them is audited whole.
  const results = await new AxeBuilder({ page }).exclude("[data-rht-toaster]").withTags(WCAG_TAGS).analyze();
  const problems = results.violations.map((violation) => `[${where}] ${violation.id}: ${violation.help} on ${violation.nodes.map((node) => node.target.join(" ")).join(" | ")}`);
  expect(problems).toEqual([]);
}

/**
 * Axe in both themes of the page as it is now, and, when PEOPLE_SCREENSHOTS is set, screenshots
 * for a person to look at (full-page shots of the long photo page cost CI seconds for nobody).
 */
async function lookAt(page: Page, name: string): Promise<void> {
  for (const theme of TOUR_THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    await expectNoAxeViolations(page, `${name} ${theme}`);
    if (process.env.PEOPLE_SCREENSHOTS) await screenshot(page, `${name}-${theme}`);
  }
  await page.emulateMedia({ colorScheme: "light" });
}

for (const size of SIZES) {
  test(`${size.name}: name a person, find them with person:, draw a face by hand`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: size.width, height: size.height });
    await signIn(page, owner);
    const name = `Grandma Zelda ${size.name === "phone" ? "Phone" : "Desk"}`;

    // /people is in the account menu; the seeded person is there.
    if (size.name === "phone") await page.getByRole("button", { name: /Account menu/ }).click();
    await page.getByTestId("people-link").click();
    await expect(page).toHaveURL(/\/people$/);
    const card = page.getByTestId("people-list").getByRole("link", { name: /Zelda/ });
    await expect(card).toBeVisible();
    await lookAt(page, `people-${size.name}`);

    // Name them on their page.
    await card.click();
    await expect(page).toHaveURL(/\/people\/[^/]+$/);
    const nameField = page.getByLabel("Name", { exact: true });
    await nameField.fill(name);
    await nameField.press("Enter");
    await expect(toast(page, `Named ${name}.`)).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
    await lookAt(page, `person-${size.name}`);

    // Find them with person: search.
    await page.goto(`/search?q=${encodeURIComponent(`person:"${name}"`)}`);
    await expect(page.locator(`a[href^="/p/${photoId}"]`).first()).toBeVisible();

    // Draw a face by hand on the photo page and give it to a new person.
    await page.goto(`/p/${photoId}`);
    const editor = page.getByTestId("face-editor");
    await editor.getByTestId("face-add").click();
    const frame = editor.getByTestId("face-frame");
    await expect(frame).toBeFocused();
    const bounds = (await frame.boundingBox())!;
    await page.mouse.move(bounds.x + bounds.width * 0.1, bounds.y + bounds.height * 0.6);
    await page.mouse.down();
    await page.mouse.move(bounds.x + bounds.width * 0.25, bounds.y + bounds.height * 0.7, { steps: 4 });
    await page.mouse.move(bounds.x + bounds.width * 0.3, bounds.y + bounds.height * 0.8, { steps: 4 });
    await page.mouse.up();
    await expect(editor.getByTestId("face-draft")).toBeVisible();
    await editor.getByTestId("face-person").selectOption("new");
    const cousin = `Cousin ${size.name}`;
    await editor.getByTestId("face-name").fill(cousin);
    await lookAt(page, `face-editor-${size.name}`);
    await editor.getByTestId("face-save").click();
    await expect(toast(page, `Face added for ${cousin}.`)).toBeVisible();
    await expect(page.getByTestId("photo-people").getByRole("link", { name: cousin })).toBeVisible();

    // The boxes stay shown after drawing, the new one among them (with the seeded and the two unnamed); the toggle hides and shows them.
    const toggle = editor.getByTestId("face-boxes-toggle");
    await expect(toggle).toHaveAttribute("aria-pressed", "true");
    await expect(editor.getByTestId("face-box")).toHaveCount(size.name === "phone" ? 4 : 5);
    await lookAt(page, `face-boxes-${size.name}`);
    await toggle.click();
    await expect(editor.getByTestId("face-box")).toHaveCount(0);
    await expect(toggle).toHaveAttribute("aria-pressed", "false");
    await toggle.click();
    await expect(editor.getByTestId("face-box")).toHaveCount(size.name === "phone" ? 4 : 5);
  });
}

test("name many faces at once: chosen by keyboard and by pointer, given to a new person in one go", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, owner);
  await page.goto("/people");
  await page.getByRole("link", { name: "Name faces" }).click();
  await expect(page).toHaveURL(/\/people\/unnamed$/);
  const grid = page.getByTestId("unnamed-faces");
  await expect(grid.getByRole("checkbox")).toHaveCount(2);
  // The keyboard: Space ticks the focused face.
  await grid.getByRole("checkbox", { name: "Face 1" }).focus();
  await page.keyboard.press("Space");
  await expect(page.getByText("1 chosen")).toBeVisible();
  // The pointer: a click on the face itself.
  await grid.locator("li").nth(1).locator(".face-crop").click();
  await expect(page.getByText("2 chosen")).toBeVisible();
  // Both are in one photo, and a person is once in a photo: the keyboard unticks the first again.
  await grid.getByRole("checkbox", { name: "Face 1" }).focus();
  await page.keyboard.press("Space");
  await expect(page.getByText("1 chosen")).toBeVisible();
  await page.getByLabel("Give them to").selectOption("new");
  await page.getByLabel("Name", { exact: true }).fill("Twin Tilly");
  // Axe once, in both themes, with the bar at its fullest (a face chosen, the new name's field shown).
  await lookAt(page, "unnamed-faces-chosen-phone");
  await page.getByRole("button", { name: "Name 1 face" }).click();
  await expect(toast(page, "1 face named Twin Tilly.")).toBeVisible();
  await expect(grid.getByRole("checkbox")).toHaveCount(1);
});

test("someone without a face is added from the photo page, and the viewer's info panel lists the photo's people", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, owner);
  await page.goto(`/p/${photoId}`);
  const editor = page.getByTestId("face-editor");
  await editor.getByTestId("person-tag-add").click();
  await editor.getByTestId("person-tag-person").selectOption("new");
  await editor.getByTestId("person-tag-name").fill("Tess Turned Away");
  await editor.getByTestId("person-tag-save").click();
  await expect(toast(page, "Tess Turned Away added to this photo, without a face.")).toBeVisible();
  await expect(page.getByTestId("photo-people").getByRole("link", { name: "Tess Turned Away" })).toBeVisible();
  await expect(editor.getByTestId("person-tags")).toContainText("Tess Turned Away, without a face");

  // CI looks at the phone only (where the panel covers the photo's lower half) with axe once; both
  // sizes and themes, with screenshots, when PEOPLE_SCREENSHOTS is set (CI time is over budget).
  for (const size of process.env.PEOPLE_SCREENSHOTS ? SIZES : SIZES.slice(0, 1)) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.goto(`/p/${photoId}`);
    await page.locator(".photo-stage-button").click();
    const viewer = page.getByRole("dialog", { name: "Photo viewer" });
    await expect(viewer.locator(".pswp__item[aria-hidden='false'] img.pswp__img:not(.pswp__img--placeholder)")).toBeVisible();
    await viewer.getByRole("button", { name: "Photo details (I)" }).click();
    const people = viewer.getByRole("region", { name: "Details" }).getByTestId("viewer-people");
    const tess = people.getByRole("link", { name: "Tess Turned Away" });
    await expect(tess).toHaveAttribute("href", /^\/people\/[^/]+$/);
    await expect(people.getByRole("link", { name: /Zelda/ })).toBeVisible();
    if (process.env.PEOPLE_SCREENSHOTS) await lookAt(page, `viewer-people-${size.name}`);
    else await expectNoAxeViolations(page, `viewer-people-${size.name}`);
  }
});

/** A descriptor `value` along axis 0 (128 float32, little-endian, as stored): distances are differences of values. */
function descriptorAt(value: number): Buffer {
  const descriptor = new Float32Array(128);
  descriptor[0] = value;
  return Buffer.from(descriptor.buffer);
}

test("\"is this X?\" on an unnamed person's page: asked, answered no, not asked again", async ({ page }) => {
  test.setTimeout(120_000);
  // Two people with detected faces 0.3 apart, written straight into the e2e server's database (the
  // detector does not run on the shared e2e site): one to be named through the API, one unnamed.
  const named = `e2e-suggested-${Date.now().toString(36)}`;
  const unnamed = `${named}-unnamed`;
  const database = new SQLite(path.resolve(E2E_DATA_DIRECTORY, "contact-sheet.sqlite"));
  try {
    database.pragma("busy_timeout = 5000");
    const ownerId = (database.prepare("select owner_id from photos where id = ?").get(photoId) as { owner_id: string }).owner_id;
    const now = new Date().toISOString();
    const person = database.prepare("insert into people (id, owner_id, name, is_hidden, cover_face_id, created_at, updated_at) values (?, ?, null, 0, ?, ?, ?)");
    const face = database.prepare(
      "insert into faces (id, photo_id, person_id, box_left, box_top, box_width, box_height, score, descriptor, source, created_at) values (?, ?, ?, ?, 0.1, 0.15, 0.2, 0.9, ?, 'detected', ?)",
    );
    for (const [id, left, value] of [[named, 0.42, 0], [unnamed, 0.6, 0.3]] as const) {
      person.run(id, ownerId, `${id}-face`, now, now);
      face.run(`${id}-face`, photoId, id, left, descriptorAt(value), now);
    }
  } finally {
    database.close();
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, owner);
  // Named through the API, which also tells the server's remembered centroids that people changed.
  const renamed = await page.request.patch(`/api/people/${named}`, { data: { name: "Ada Suggested" }, headers: { Origin: E2E_BASE_URL } });
  expect(renamed.status(), await renamed.text()).toBe(200);

  for (const size of process.env.PEOPLE_SCREENSHOTS ? SIZES : SIZES.slice(0, 1)) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.goto(`/people/${unnamed}`);
    const question = page.getByTestId("person-suggestion");
    await expect(question.getByRole("heading", { name: "Is this Ada Suggested?" })).toBeVisible();
    await lookAt(page, `person-suggestion-${size.name}`);
  }
  await page.getByTestId("person-suggestion").getByRole("button", { name: "No" }).click();
  await expect(toast(page, "Not Ada Suggested: not asked again.")).toBeVisible();
  await expect(page.getByTestId("person-suggestion")).toHaveCount(0);
});

test("consent is asked where photos arrive: the upload page's notice, put off by keyboard", async ({ browser }) => {
  test.setTimeout(90_000);
  // People turned on straight in the e2e server's database (through the API it would queue a
  // backfill of the shared site), for the few seconds this takes, then back as it was; the owner
  // has not answered, so nothing of theirs is looked at meanwhile.
  const database = new SQLite(path.resolve(E2E_DATA_DIRECTORY, "contact-sheet.sqlite"));
  database.pragma("busy_timeout = 5000");
  const before = database.prepare("select value from settings where key = 'faces.enabled'").get() as { value: string } | undefined;
  const setEnabled = (value: string | undefined) =>
    value === undefined
      ? database.prepare("delete from settings where key = 'faces.enabled'").run()
      : database.prepare("insert into settings (key, value) values ('faces.enabled', ?) on conflict (key) do update set value = excluded.value").run(value);
  setEnabled("true");
  const context = await browser.newContext({ storageState: ownerSession });
  try {
    const page = await context.newPage();
    for (const size of process.env.PEOPLE_SCREENSHOTS ? [...SIZES].reverse() : SIZES.slice(0, 1)) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.goto("/admin/upload");
      await expect(page.getByTestId("face-consent-notice").getByRole("heading", { name: "Find people in your photos?" })).toBeVisible();
      // Axe on the notice alone, in both themes (the upload page around it is the accessibility spec's).
      for (const theme of TOUR_THEMES) {
        await page.emulateMedia({ colorScheme: theme });
        await settleAnimations(page);
        const results = await new AxeBuilder({ page }).include('[data-testid="face-consent-notice"]').withTags(WCAG_TAGS).analyze();
        expect(results.violations.map((violation) => `[${theme}] ${violation.id}: ${violation.help}`)).toEqual([]);
        if (process.env.PEOPLE_SCREENSHOTS) await screenshot(page, `face-consent-notice-${size.name}-${theme}`);
      }
      await page.emulateMedia({ colorScheme: "light" });
    }
    // The link leads to the whole text and its answer on People (the panel's id; tests/people-consent.test.ts has the rest).
    await expect(page.getByRole("link", { name: "Read and answer" })).toHaveAttribute("href", "/people#face-consent");
    // Put off by keyboard: gone, focus on the page's heading, and not shown again for these words.
    await page.getByRole("button", { name: "Not now" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("face-consent-notice")).toHaveCount(0);
    await expect(page.getByRole("heading", { level: 1, name: "Upload" })).toBeFocused();
    await page.reload();
    await expect(page.getByRole("heading", { level: 1, name: "Upload" })).toBeVisible();
    await expect(page.getByTestId("face-consent-notice")).toHaveCount(0);
  } finally {
    await context.close();
    setEnabled(before?.value);
    database.close();
  }
});
