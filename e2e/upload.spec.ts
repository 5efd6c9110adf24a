import fs from "node:fs";
import path from "node:path";
import { expect, type Page, test, type TestInfo } from "@playwright/test";
import { deleteEveryPhoto } from "./seed-photos";
import { createUser, screenshot, signIn, toast } from "./helpers";

// Playwright runs from the checkout (where playwright.config.ts is); the corpus sits beside it.
const CORPUS = path.resolve("../shared/corpus/exif-samples");
const FILES = [
  { path: path.join(CORPUS, "heic/IMG_5195.HEIC"), name: "IMG_5195.HEIC" },
  { path: path.join(CORPUS, "jpg/Canon_40D.jpg"), name: "Canon_40D.jpg" },
  { path: path.join(CORPUS, "jpg/Nikon_D70.jpg"), name: "Nikon_D70.jpg" },
];

/** Attaches a screenshot to the test report and keeps a copy under test-results/screens/. */
async function attachScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await screenshot(page, `upload-${name}`);
  await testInfo.attach(name, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
}

test("an editor uploads three photos with Uppy, shares two, and a visitor browses the shared ones", async ({ page, browser }, testInfo) => {
  test.setTimeout(240_000);
  await deleteEveryPhoto(browser);
  const editor = await createUser(browser, "editor");
  const ids = new Map<string, string>();

  await test.step("the editor adds three files in Uppy and uploads them", async () => {
    await signIn(page, editor, { callbackPath: "/admin/upload" });
    await expect(page.getByRole("heading", { name: "Upload" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Upload" })).toBeVisible();
    await expect(page.getByText(/JPEG, PNG, WebP, AVIF, HEIC\/HEIF, TIFF or GIF, up to 200 MB each/)).toBeVisible();
    await attachScreenshot(page, testInfo, "empty");
    // Uppy's Dashboard has a file input (and a folder input); the first takes files.
    await page.locator("input.uppy-Dashboard-input").first().setInputFiles(FILES.map((file) => file.path));
    for (const file of FILES) await expect(page.locator(".uppy-Dashboard-Item").filter({ hasText: file.name })).toBeVisible();
    await attachScreenshot(page, testInfo, "files-added");

    await page.getByRole("button", { name: /^Upload 3 files/ }).click();
    for (const file of FILES) await expect(toast(page, `Uploaded ${file.name}`)).toBeVisible({ timeout: 60_000 });
    await attachScreenshot(page, testInfo, "uploaded-toasts");
  });

  await test.step("the photos become ready", async () => {
    const list = page.getByRole("region", { name: "Uploaded photos" });
    for (const file of FILES) {
      const item = list.getByRole("listitem").filter({ hasText: file.name });
      await expect(item).toHaveAttribute("data-status", "ready", { timeout: 120_000 });
      ids.set(file.name, (await item.getAttribute("data-photo-id")) ?? "");
      // Each ready photo shows its small thumbnail, a variant that really loads.
      await expect(item.locator(".uploaded-thumb img")).toHaveJSProperty("complete", true, { timeout: 30_000 });
      expect(await item.locator(".uploaded-thumb img").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    }
    await attachScreenshot(page, testInfo, "ready");
  });

  const [heic, canon, nikon] = FILES.map((file) => ids.get(file.name) ?? "");
  const publicIds = [heic, canon];

  await test.step("a file already uploaded is reported as a duplicate, a non-photo is refused with the reason", async () => {
    await page.getByRole("button", { name: "Done" }).click();
    await page.locator("input.uppy-Dashboard-input").first().setInputFiles([
      { name: FILES[1].name, mimeType: "image/jpeg", buffer: fs.readFileSync(FILES[1].path) },
      { name: "notes.jpg", mimeType: "image/jpeg", buffer: Buffer.from("<!doctype html><script>alert(1)</script>") },
    ]);
    await page.getByRole("button", { name: /^Upload 2 files/ }).click();
    const duplicate = toast(page, `${FILES[1].name} is a duplicate`);
    await expect(duplicate).toBeVisible({ timeout: 60_000 });
    await expect(duplicate.getByRole("link", { name: "Open the photo" })).toHaveAttribute("href", `/p/${canon}`);
    // A refusal is final: the file leaves the Dashboard (no Retry offered) and is listed with the
    // reason, said there once (no toast repeating it).
    const refused = page.getByRole("region", { name: "Refused files" }).getByRole("listitem");
    // On one line, the name said once: not `notes.jpg` / `: "notes.jpg" is not a photo…`.
    await expect(refused).toHaveText(/^notes\.jpg: Not a photo we can read/, { timeout: 60_000 });
    expect(await refused.evaluate((item) => item.getClientRects().length === 1 && item.getBoundingClientRect().height < 40)).toBe(true);
    await expect(toast(page, /notes\.jpg/)).toHaveCount(0);
    await expect(page.locator(".uppy-Dashboard-Item").filter({ hasText: "notes.jpg" })).toHaveCount(0);
    await expect(page.getByText("Upload failed")).toHaveCount(0);
    await attachScreenshot(page, testInfo, "duplicate-and-refused");
  });

  await test.step("after a reload the list still shows the uploads, with thumbnails and status", async () => {
    await page.reload();
    const list = page.getByRole("region", { name: "Uploaded photos" });
    for (const file of FILES) {
      const item = list.getByRole("listitem").filter({ hasText: file.name });
      await expect(item).toHaveAttribute("data-status", "ready");
      await expect(item).toHaveAttribute("data-photo-id", ids.get(file.name) ?? "");
      await expect(item.locator(".uploaded-thumb img")).toHaveAttribute("src", /^\/media\//);
      await expect(item.getByRole("link", { name: `Add alt text to ${file.name}` })).toBeVisible();
    }
    await attachScreenshot(page, testInfo, "after-reload");
  });

  await test.step("the nudge leads to the photo's editor, and goes once the alt text is written", async () => {
    const [first] = FILES;
    await page.getByRole("link", { name: `Add alt text to ${first.name}` }).click();
    await expect(page).toHaveURL(new RegExp(`/p/${ids.get(first.name)}#details$`));
    const form = page.getByRole("form", { name: "Edit photo" });
    await form.getByLabel("Alt text").fill("A test photo from the corpus");
    await form.getByRole("button", { name: "Save" }).click();
    await expect(toast(page, "Photo saved")).toBeVisible();
    await page.goto("/admin/upload");
    const list = page.getByRole("region", { name: "Uploaded photos" });
    await expect(list.getByRole("listitem").filter({ hasText: first.name })).toBeVisible();
    await expect(list.getByRole("link", { name: `Add alt text to ${first.name}` })).toHaveCount(0);
    await expect(list.getByRole("link", { name: `Add alt text to ${FILES[1].name}` })).toBeVisible();
  });

  await test.step("the editor makes two of them public on their photo pages", async () => {
    for (const id of publicIds) {
      await page.goto(`/p/${id}`);
      await expect(page.getByTestId("photo-image")).toBeVisible();
      const form = page.getByRole("form", { name: "Edit photo" });
      await form.getByLabel("Visibility").selectOption("public");
      await form.getByRole("button", { name: "Save" }).click();
      await expect(toast(page, "Photo saved")).toBeVisible();
    }
    await attachScreenshot(page, testInfo, "editor-photo-page");
  });

  await test.step("a signed-out visitor sees only the public ones and moves between them with the arrow keys", async () => {
    const visitorContext = await browser.newContext();
    const visitor = await visitorContext.newPage();
    try {
      await visitor.goto("/");
      const tiles = visitor.getByTestId("grid-photo");
      for (const id of publicIds) await expect(visitor.locator(`a[href="/p/${id}"]`)).toBeVisible();
      await expect(visitor.locator(`a[href="/p/${nikon}"]`)).toHaveCount(0);
      await expect(tiles).toHaveCount(2);
      await attachScreenshot(visitor, testInfo, "visitor-grid");

      // Newest first: the first tile's "next" is the second tile.
      const order = await tiles.evaluateAll((links) => links.map((link) => link.getAttribute("href")?.replace("/p/", "") ?? ""));
      await tiles.first().click();
      await expect(visitor).toHaveURL(`/p/${order[0]}`);
      await expect(visitor.getByTestId("photo-image")).toBeVisible();
      await attachScreenshot(visitor, testInfo, "visitor-photo");

      await visitor.keyboard.press("ArrowRight");
      await expect(visitor).toHaveURL(`/p/${order[1]}`);
      await expect(visitor.getByTestId("photo-image")).toBeVisible();
      await attachScreenshot(visitor, testInfo, "visitor-next-photo");

      await visitor.keyboard.press("ArrowLeft");
      await expect(visitor).toHaveURL(`/p/${order[0]}`);
      // The private photo is not there for the visitor, even by its address.
      const privateAnswer = await visitor.goto(`/p/${nikon}`);
      expect(privateAnswer?.status()).toBe(404);
    } finally {
      await visitorContext.close();
    }
  });
});

test("a chunk lost to a dropped connection is sent again from the offset the server has, and the upload completes", async ({ page, browser }, testInfo) => {
  test.setTimeout(120_000);
  const editor = await createUser(browser, "editor");
  const file = { path: path.join(CORPUS, "jpg/Olympus_C8080WZ.jpg"), name: "Olympus_C8080WZ.jpg" };
  const tusRequests: string[] = [];
  let droppedChunks = 0;
  await page.route("**/api/upload/tus/*", async (route) => {
    const method = route.request().method();
    tusRequests.push(method);
    // The first chunk never arrives: the connection drops, as on a train going into a tunnel.
    if (method === "PATCH" && droppedChunks === 0) {
      droppedChunks += 1;
      await route.abort("connectionreset");
      return;
    }
    await route.continue();
  });

  await signIn(page, editor, { callbackPath: "/admin/upload" });
  await page.locator("input.uppy-Dashboard-input").first().setInputFiles(file.path);
  await page.getByRole("button", { name: /^Upload 1 file/ }).click();
  await expect(toast(page, `Uploaded ${file.name}`)).toBeVisible({ timeout: 60_000 });
  await attachScreenshot(page, testInfo, "resumed-after-drop");

  expect(droppedChunks).toBe(1);
  // tus-js-client asked the server where to continue (HEAD) before sending the chunk again.
  expect(tusRequests.slice(0, 3)).toEqual(["PATCH", "HEAD", "PATCH"]);
  const item = page.getByRole("region", { name: "Uploaded photos" }).getByRole("listitem").filter({ hasText: file.name });
  await expect(item).toHaveAttribute("data-status", "ready", { timeout: 60_000 });
});

test("an upload cut off when the phone goes offline waits, and continues by itself when it is back online", async ({ page, browser }, testInfo) => {
  test.setTimeout(120_000);
  const editor = await createUser(browser, "editor");
  const file = { path: path.join(CORPUS, "jpg/Pentax_K10D.jpg"), name: "Pentax_K10D.jpg" };
  const tusRequests: string[] = [];
  let wentOffline = false;
  await page.route("**/api/upload/tus/*", async (route) => {
    const method = route.request().method();
    tusRequests.push(method);
    // The phone loses its connection mid-chunk (a lift, a tunnel, sleep).
    if (method === "PATCH" && !wentOffline) {
      wentOffline = true;
      await page.context().setOffline(true);
      await route.abort("internetdisconnected");
      return;
    }
    await route.continue();
  });

  await signIn(page, editor, { callbackPath: "/admin/upload" });
  await page.locator("input.uppy-Dashboard-input").first().setInputFiles(file.path);
  await page.getByRole("button", { name: /^Upload 1 file/ }).click();
  await expect.poll(() => wentOffline, { timeout: 30_000 }).toBe(true);
  await attachScreenshot(page, testInfo, "offline");
  await expect(toast(page, `Uploaded ${file.name}`)).toHaveCount(0);

  // Back online: nobody presses Retry.
  await page.context().setOffline(false);
  await expect(toast(page, `Uploaded ${file.name}`)).toBeVisible({ timeout: 60_000 });
  // It continued from the offset the server had (HEAD), not from scratch.
  const firstPatch = tusRequests.indexOf("PATCH");
  expect(tusRequests.slice(firstPatch + 1, firstPatch + 3)).toEqual(["HEAD", "PATCH"]);
});

test("an upload the server gave up on while the phone slept continues when the page is shown again", async ({ page, browser }, testInfo) => {
  test.setTimeout(120_000);
  const editor = await createUser(browser, "editor");
  const file = { path: path.join(CORPUS, "jpg/Ricoh_Caplio_RR330.jpg"), name: "Ricoh_Caplio_RR330.jpg" };
  const tusRequests: string[] = [];
  let timedOut = false;
  await page.route("**/api/upload/tus/*", async (route) => {
    const method = route.request().method();
    tusRequests.push(method);
    // The phone slept mid-chunk and a reverse proxy stopped waiting for the body: nginx answers 408
    // (client_body_timeout), which tus does not retry.
    if (method === "PATCH" && !timedOut) {
      timedOut = true;
      await route.fulfill({ status: 408, contentType: "text/html", body: "<html><body><h1>408 Request Time-out</h1></body></html>" });
      return;
    }
    await route.continue();
  });

  await signIn(page, editor, { callbackPath: "/admin/upload" });
  await page.locator("input.uppy-Dashboard-input").first().setInputFiles(file.path);
  await page.getByRole("button", { name: /^Upload 1 file/ }).click();
  await expect(toast(page, new RegExp(`${file.name} did not finish`))).toBeVisible({ timeout: 30_000 });
  await attachScreenshot(page, testInfo, "failed-while-asleep");

  // The phone wakes and shows the page again: nobody presses Retry.
  await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
  await expect(toast(page, `Uploaded ${file.name}`)).toBeVisible({ timeout: 60_000 });
  const firstPatch = tusRequests.indexOf("PATCH");
  expect(tusRequests.slice(firstPatch + 1, firstPatch + 3)).toEqual(["HEAD", "PATCH"]);
  const item = page.getByRole("region", { name: "Uploaded photos" }).getByRole("listitem").filter({ hasText: file.name });
  await expect(item).toHaveAttribute("data-status", "ready", { timeout: 60_000 });
});

test("photos shared from a phone's gallery ('Share → Contact Sheet') upload through the same resumable path", async ({ page, browser }, testInfo) => {
  test.setTimeout(120_000);
  const editor = await createUser(browser, "editor");
  const file = { path: path.join(CORPUS, "jpg/Kodak_CX7530.jpg"), name: "Kodak_CX7530.jpg" };
  const tusRequests: string[] = [];
  await page.route("**/api/upload/tus**", async (route) => {
    tusRequests.push(route.request().method());
    await route.continue();
  });

  await signIn(page, editor, { callbackPath: "/admin/upload" });
  // Opening the upload page once installs the worker the share target needs.
  await page.waitForFunction(async () => (await navigator.serviceWorker.getRegistration("/api/upload/share"))?.active?.state === "activated");

  // What the share sheet does with the manifest's share_target: a multipart POST navigation.
  await page.evaluate(() => {
    const form = Object.assign(document.createElement("form"), { method: "post", enctype: "multipart/form-data", action: "/api/upload/share" });
    form.append(Object.assign(document.createElement("input"), { type: "file", name: "photos", id: "share-sheet", multiple: true }));
    document.body.append(form);
  });
  await page.locator("#share-sheet").setInputFiles(file.path);
  await page.evaluate(() => (document.querySelector("#share-sheet") as HTMLInputElement).form?.submit());

  await expect(page.getByRole("status").filter({ hasText: "Shared from your device: 1 photo, added to the upload below." })).toBeVisible({ timeout: 30_000 });
  // The address no longer names the share, so a reload does not add the photo again.
  await expect(page).toHaveURL(/\/admin\/upload$/);
  await expect(toast(page, `Uploaded ${file.name}`)).toBeVisible({ timeout: 60_000 });
  expect(tusRequests).toContain("POST");
  expect(tusRequests).toContain("PATCH");
  const item = page.getByRole("region", { name: "Uploaded photos" }).getByRole("listitem").filter({ hasText: file.name });
  await expect(item).toHaveAttribute("data-status", "ready", { timeout: 60_000 });
  await attachScreenshot(page, testInfo, "shared-from-phone");
  // Nothing of the share is left in the browser.
  expect(await page.evaluate(async () => (await (await caches.open("contact-sheet-shared-photos")).keys()).length)).toBe(0);
});
