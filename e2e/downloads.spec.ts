import fs from "node:fs";
import path from "node:path";
import { type Download, expect, type Page, test } from "@playwright/test";
import exifr from "exifr";
import { createUser, E2E_BASE_URL, screenshot, signIn, toast } from "./helpers";

// SECURITY.md 13 and 56 as people meet them: the owner downloads the original; a visitor sees a
// Download link only where the photo allows it, and the file they get has no coordinates.

const FILE = path.resolve("../shared/corpus/exif-samples/jpg/gps/DSCN0010.jpg");

async function savedBytes(download: Download): Promise<Buffer> {
  const filePath = await download.path();
  return fs.readFileSync(filePath);
}

async function uploadAndWait(page: Page): Promise<string> {
  const upload = await page.request.post("/api/upload", {
    multipart: { file: { name: "DSCN0010.jpg", mimeType: "image/jpeg", buffer: fs.readFileSync(FILE) } },
    headers: { Origin: E2E_BASE_URL },
  });
  expect(upload.status()).toBe(201);
  const [photo] = ((await upload.json()) as { photos: Array<{ id: string }> }).photos;
  await expect
    .poll(async () => ((await (await page.request.get(`/api/photos/${photo.id}`)).json()) as { photo: { status: string } }).photo.status, { timeout: 60_000 })
    .toBe("ready");
  return photo.id;
}

async function saveEditor(page: Page, changes: { visibility?: string; downloads?: string }): Promise<void> {
  const form = page.getByRole("form", { name: "Edit photo" });
  if (changes.visibility) await form.getByLabel("Visibility").selectOption(changes.visibility);
  if (changes.downloads) await form.getByLabel("Downloads by others").selectOption(changes.downloads);
  // The toast of an earlier save may still be showing (success toasts stay 2 s).
  await expect(toast(page, "Photo saved")).toHaveCount(0);
  await form.getByRole("button", { name: "Save" }).click();
  await expect(toast(page, "Photo saved")).toBeVisible();
}

test("the owner downloads the original; a visitor downloads a copy without the location, only while the photo allows it", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const editor = await createUser(browser, "editor");
  await signIn(page, editor);
  const id = await uploadAndWait(page);

  await page.goto(`/p/${id}`);
  await saveEditor(page, { visibility: "public" });
  const ownerLink = page.getByRole("link", { name: "Download original" });
  await expect(ownerLink).toBeVisible();
  const [ownerDownload] = await Promise.all([page.waitForEvent("download"), ownerLink.click()]);
  expect((await savedBytes(ownerDownload)).equals(fs.readFileSync(FILE))).toBe(true);

  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  try {
    await visitor.goto(`/p/${id}`);
    await expect(visitor.getByTestId("photo-image")).toBeVisible();
    // Downloads are off for the site by default: no link for anyone but the owner.
    await expect(visitor.getByRole("link", { name: /Download/ })).toHaveCount(0);

    await saveEditor(page, { downloads: "allow" });
    await screenshot(page, "downloads-owner-photo-page");
    await visitor.reload();
    const visitorLink = visitor.getByRole("link", { name: "Download", exact: true });
    await expect(visitorLink).toBeVisible();
    await screenshot(visitor, "downloads-visitor-photo-page");
    const [visitorDownload] = await Promise.all([visitor.waitForEvent("download"), visitorLink.click()]);
    expect(visitorDownload.suggestedFilename()).toBe("DSCN0010.jpg");
    const copy = await savedBytes(visitorDownload);
    expect(await exifr.gps(copy).catch(() => undefined)).toBeUndefined();
    expect(((await exifr.parse(copy, ["Make"])) as { Make: string }).Make).toBe("NIKON");

    await saveEditor(page, { downloads: "deny" });
    await visitor.reload();
    await expect(visitor.getByTestId("photo-image")).toBeVisible();
    await expect(visitor.getByRole("link", { name: /Download/ })).toHaveCount(0);
  } finally {
    await visitorContext.close();
    // The gallery is shared by every spec: a public photo left behind would show up in theirs.
    await page.request.delete(`/api/photos/${id}`, { headers: { Origin: E2E_BASE_URL } });
  }
});
