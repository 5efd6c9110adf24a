import fs from "node:fs";
import path from "node:path";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { createUser, E2E_BASE_URL, signIn, type TestUser } from "./helpers";

// Issue 14's scenario, end to end in Chromium: an editor makes a password link with picks allowed
// from a selection in the library; a visitor in a second browser enters the password, picks three
// photos, comments one, sends the selection and downloads the ZIP; the owner sees the picks and
// exports the CSV; after the owner revokes, the visitor's open tab gets nothing more.

const CORPUS_JPEGS = path.resolve("../shared/corpus/exif-samples/jpg");
const FILES = ["gps/DSCN0010.jpg", "Canon_40D.jpg", "Nikon_D70.jpg", "Fujifilm_FinePix_E500.jpg"];
const PASSWORD = "a long share password";
const VISITOR = "Grandma Rose";
const COMMENT = "This one for the hallway, please";

async function uploadPrivatePhotos(page: Page): Promise<string[]> {
  const ids: string[] = [];
  for (const file of FILES) {
    const uploaded = await page.request.post("/api/upload", {
      headers: { Origin: E2E_BASE_URL },
      multipart: { file: { name: path.basename(file), mimeType: "image/jpeg", buffer: fs.readFileSync(path.join(CORPUS_JPEGS, file)) } },
    });
    expect(uploaded.status(), await uploaded.text()).toBe(201);
    ids.push(((await uploaded.json()) as { photos: Array<{ id: string }> }).photos[0].id);
  }
  for (const id of ids) {
    await expect
      .poll(async () => ((await (await page.request.get(`/api/photos/${id}`)).json()) as { photo: { status: string } }).photo.status, { timeout: 90_000, intervals: [250] })
      .toBe("ready");
  }
  return ids;
}

async function ownerPage(browser: Browser): Promise<{ page: Page; owner: TestUser }> {
  const owner = await createUser(browser, "editor");
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  await signIn(page, owner, { callbackPath: "/admin/photos" });
  return { page, owner };
}

test("a password link with picks: the visitor picks, comments, sends and downloads; the owner exports; revoking ends the visitor's tab", async ({ browser }) => {
  test.setTimeout(300_000);
  const { page: ownerTab } = await ownerPage(browser);
  const photoIds = await uploadPrivatePhotos(ownerTab);

  // The owner: library selection → Share… → a password link, copies with a ZIP, picks.
  await ownerTab.goto("/admin/photos");
  const tiles = ownerTab.getByRole("listbox", { name: "Photos" }).getByRole("option");
  await expect(tiles).toHaveCount(FILES.length);
  await tiles.first().focus();
  await ownerTab.keyboard.press("Control+a");
  await expect(ownerTab.getByTestId("library-selection")).toHaveText(`${FILES.length} of ${FILES.length} selected`);
  await ownerTab.getByRole("button", { name: "Share…" }).click();
  const dialog = ownerTab.getByRole("dialog");
  await dialog.getByLabel("Title").fill("Rose's birthday");
  await dialog.getByLabel("Downloads").selectOption("copy");
  await dialog.getByLabel("Download everything as one ZIP").check();
  await dialog.getByLabel("Pick favourites and comment").check();
  await dialog.getByLabel("Ask visitors for a password").check();
  await dialog.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await dialog.getByRole("button", { name: "Create link" }).click();
  const linkField = dialog.getByLabel("Share link");
  await expect(linkField).toHaveValue(/\/s\/[A-Za-z0-9_-]{24}$/);
  const shareUrl = await linkField.inputValue();
  const key = /\/s\/([A-Za-z0-9_-]{24})$/.exec(shareUrl)?.[1] as string;
  expect(Buffer.from(key, "base64url").length * 8).toBeGreaterThanOrEqual(128);
  const shares = (await (await ownerTab.request.get("/api/shares")).json()) as { shares: Array<{ id: string; url: string; hasPassword: boolean; allowPicks: boolean }> };
  const share = shares.shares.find((candidate) => candidate.url.endsWith(`/s/${key}`));
  expect(share).toMatchObject({ hasPassword: true, allowPicks: true });
  const shareId = share?.id as string;

  // The visitor: a second browser, the password once, then the gallery.
  const visitorContext = await browser.newContext({ acceptDownloads: true });
  const visitorTab = await visitorContext.newPage();
  const first = await visitorTab.goto(`/s/${key}`);
  expect(first?.status()).toBe(401);
  await expect(visitorTab.locator("img")).toHaveCount(0);
  await visitorTab.getByTestId("share-password").fill(PASSWORD);
  await visitorTab.getByRole("button", { name: "View photos" }).click();
  await expect(visitorTab).toHaveURL(new RegExp(`/s/${key}$`));
  const images = visitorTab.locator("main img");
  await expect(images).toHaveCount(FILES.length);
  // No password in any URL the browser went to.
  expect(visitorTab.url()).not.toContain(encodeURIComponent(PASSWORD));
  const imageUrl = new URL((await images.first().getAttribute("src")) as string, E2E_BASE_URL).pathname;
  expect(imageUrl.startsWith(`/s/${key}/media/`)).toBe(true);

  // Proofing: the first pick asks for a name; then three picks, one comment, "Send my selection".
  const pickButtons = visitorTab.getByRole("button", { name: /^Pick / });
  await pickButtons.first().click();
  const nameDialog = visitorTab.getByRole("dialog", { name: "Who is picking?" });
  await nameDialog.getByLabel("Your name").fill(VISITOR);
  await nameDialog.getByRole("button", { name: "Continue" }).click();
  await expect(nameDialog).toBeHidden();
  const picked = visitorTab.locator('main button[aria-pressed="true"]');
  if ((await picked.count()) === 0) await pickButtons.first().click();
  await expect(picked).toHaveCount(1);
  await pickButtons.first().click();
  await expect(picked).toHaveCount(2);
  await pickButtons.first().click();
  await expect(picked).toHaveCount(3);
  await expect(visitorTab.getByRole("complementary", { name: "Your selection" })).toContainText("3");

  await visitorTab.locator("main a[href*='/p/']").first().click();
  await visitorTab.getByLabel("Comment for the photographer").fill(COMMENT);
  await visitorTab.getByRole("button", { name: "Save comment" }).click();
  await expect(visitorTab.getByRole("button", { name: "Save changes" })).toBeVisible();
  await visitorTab.getByRole("button", { name: "Send my selection" }).click();
  await expect(visitorTab.getByRole("button", { name: "Send again" })).toBeVisible();

  // "Download all": the file the browser saves is exactly the Content-Length announced.
  await visitorTab.goto(`/s/${key}`);
  const [download] = await Promise.all([visitorTab.waitForEvent("download"), visitorTab.getByRole("link", { name: /download all/i }).click()]);
  const saved = await download.path();
  const announced = (await visitorTab.request.head(`/s/${key}/download.zip`)).headers()["content-length"];
  expect(fs.statSync(saved).size).toBe(Number(announced));
  expect(download.suggestedFilename()).toMatch(/\.zip$/);

  // The owner: the picks and the comment, and the CSV.
  await ownerTab.goto(`/admin/shares/${shareId}/selections`);
  const visitorCard = ownerTab.getByRole("main");
  await expect(visitorCard.getByText(VISITOR)).toBeVisible();
  await expect(visitorCard.getByText(COMMENT)).toBeVisible();
  const [csvDownload] = await Promise.all([ownerTab.waitForEvent("download"), ownerTab.getByRole("link", { name: /csv/i }).first().click()]);
  const csv = fs.readFileSync(await csvDownload.path(), "utf8");
  expect(csv).toContain(VISITOR);
  expect(csv).toContain(COMMENT);
  expect(csv.trim().split("\n").length).toBeGreaterThanOrEqual(4);
  expect(photoIds.length).toBe(FILES.length);

  // The owner revokes; the visitor's open tab gets nothing more: the page, an image, the ZIP, the API.
  await ownerTab.goto(`/admin/shares/${shareId}`);
  await ownerTab.getByRole("button", { name: "Revoke link" }).click();
  await ownerTab.getByRole("dialog").getByRole("button", { name: "Revoke link" }).click();
  await expect(ownerTab.getByText(/this link is revoked/i)).toBeVisible();

  const reloaded = await visitorTab.reload();
  expect(reloaded?.status()).toBe(401);
  await expect(visitorTab.locator("main img")).toHaveCount(0);
  for (const url of [imageUrl, `/s/${key}/download.zip`, `/s/${key}/api/photos`]) {
    expect((await visitorTab.request.get(url)).status(), url).toBe(401);
  }
  // The image as the tab itself would fetch it (the browser's own cache must not answer: private, no-store).
  const fetched = await visitorTab.evaluate(async (url) => (await fetch(url, { credentials: "same-origin" })).status, imageUrl);
  expect(fetched).toBe(401);
  await visitorContext.close();
});
