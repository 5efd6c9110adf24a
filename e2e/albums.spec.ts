import { type Browser, expect, type Locator, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { E2E_BASE_URL, newAdminContext, screenshot, toast } from "./helpers";

// Albums end to end: an editor makes an album, arranges its photos by dragging (a real mouse drag)
// and by keyboard, picks a cover and makes it public; a visitor then finds it on /albums, opens it
// and walks its photos with the arrow keys in the album's order, not the gallery's. A private photo
// in the public album is neither shown to the visitor nor counted.

const SHAPES: Array<[number, number]> = [[900, 600], [600, 900], [800, 800], [1200, 500]];

/** Uploads generated photos as the e2e admin, in this order (so the gallery shows the last first); answers their ids. */
async function uploadPhotos(browser: Browser, count: number, label: string, visibility: "public" | "private"): Promise<string[]> {
  const context = await newAdminContext(browser);
  const ids: string[] = [];
  try {
    for (let index = 0; index < count; index += 1) {
      const [width, height] = SHAPES[index % SHAPES.length];
      const seed = Date.now() % 200;
      const background = { r: (seed + index * 71) % 256, g: (index * 113 + 40) % 256, b: (seed * 3 + index * 37) % 256 };
      const buffer = await sharp({ create: { width, height, channels: 3, background } }).jpeg().toBuffer();
      const uploaded = await context.request.post("/api/upload", {
        multipart: { file: { name: `${label}-${index}.jpg`, mimeType: "image/jpeg", buffer } },
        headers: { Origin: E2E_BASE_URL },
      });
      expect(uploaded.status(), await uploaded.text()).toBe(201);
      const id = ((await uploaded.json()) as { photos: Array<{ id: string }> }).photos[0].id;
      const patched = await context.request.patch(`/api/photos/${id}`, { headers: { Origin: E2E_BASE_URL }, data: { visibility, title: `${label} ${index + 1}` } });
      expect(patched.status(), await patched.text()).toBe(200);
      ids.push(id);
    }
    for (const id of ids) {
      await expect
        .poll(async () => ((await (await context.request.get(`/api/photos/${id}`)).json()) as { photo: { status: string } }).photo.status, { timeout: 60_000 })
        .toBe("ready");
    }
    return ids;
  } finally {
    await context.close();
  }
}

/** The photo ids of the album editor's tiles, in the order shown. */
function editorOrder(page: Page): Promise<string[]> {
  return page.getByTestId("album-editor-photo").evaluateAll((tiles) => tiles.map((tile) => tile.getAttribute("data-photo-id") ?? ""));
}

function tile(page: Page, photoId: string): Locator {
  return page.locator(`[data-testid="album-editor-photo"][data-photo-id="${photoId}"]`);
}

/**
 * A real mouse drag: press on the photo's handle, move in steps until the dragged tile sits on the
 * target tile (the pointer keeps its place on the handle), let go.
 */
async function dragPhoto(page: Page, photoId: string, ontoPhotoId: string): Promise<void> {
  const handle = (await tile(page, photoId).getByTestId("album-editor-handle").boundingBox())!;
  const dragged = (await tile(page, photoId).boundingBox())!;
  const target = (await tile(page, ontoPhotoId).boundingBox())!;
  const start = { x: handle.x + handle.width / 2, y: handle.y + handle.height / 2 };
  const offset = { x: start.x - (dragged.x + dragged.width / 2), y: start.y - (dragged.y + dragged.height / 2) };
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(start.x - 12, start.y + 4, { steps: 4 });
  await page.mouse.move(target.x + target.width / 2 + offset.x, target.y + target.height / 2 + offset.y, { steps: 20 });
  await page.mouse.up();
}

test("an editor arranges a public album; a visitor walks it in the album's order, never seeing its private photo", async ({ browser }) => {
  test.setTimeout(180_000);
  const label = `Album e2e ${Date.now()}`;
  // Uploaded A, B, C, so the gallery (newest first) shows C, B, A. The album is arranged by hand to
  // A, B, C: every step "next" in the album is a step "previous" in the gallery.
  const [photoA, photoB, photoC] = await uploadPhotos(browser, 3, label, "public");
  const [privatePhoto] = await uploadPhotos(browser, 1, `${label} private`, "private");
  const title = `Holidays ${Date.now() % 100000}`;

  const editorContext = await newAdminContext(browser);
  const page = await editorContext.newPage();
  try {
    // Create it from /admin/albums: it opens in its editor.
    await page.goto("/admin/albums");
    await expect(page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Albums" })).toHaveAttribute("aria-current", "page");
    const form = page.getByRole("form", { name: "Create an album" });
    await form.getByLabel("Title").fill(title);
    await form.getByLabel("Description").fill("Four days by the sea.");
    await form.getByRole("button", { name: "Create album" }).click();
    await expect(toast(page, `Created the album ${title}`)).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/albums\/[0-9a-f-]+$/);
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();

    // Add the three public photos and the private one with the picker, in the gallery's order (C, B, A, private first).
    await page.getByRole("button", { name: "Add photos", exact: true }).click();
    const picker = page.getByRole("dialog", { name: `Add photos to ${title}` });
    for (const id of [photoC, photoB, photoA, privatePhoto]) await picker.locator(`[data-testid="photo-picker-choice"][data-photo-id="${id}"]`).check();
    await picker.getByRole("button", { name: "Add 4 photos" }).click();
    await expect(toast(page, `4 photos added to ${title}`)).toBeVisible();
    await expect(page.getByTestId("album-editor-photo")).toHaveCount(4);
    expect(await editorOrder(page)).toEqual([photoC, photoB, photoA, privatePhoto]);

    // A real drag: A from third place onto the first.
    await dragPhoto(page, photoA, photoC);
    await expect(toast(page, new RegExp(`to position 1 of 4 in ${title}`))).toBeVisible();
    await expect.poll(() => editorOrder(page)).toEqual([photoA, photoC, photoB, privatePhoto]);

    // The keyboard: B's handle, Space to lift, one step left, Space to drop.
    // Each key waits for what a screen reader hears (dnd-kit's live region), as a person would.
    const announced = page.locator('[id^="DndLiveRegion"]');
    await tile(page, photoB).getByTestId("album-editor-handle").focus();
    await page.keyboard.press("Space");
    await expect(announced).toHaveText(/position 3 of 4\.$/);
    await page.keyboard.press("ArrowLeft");
    await expect(announced).toHaveText(/would move to position 2 of 4\.$/);
    await page.keyboard.press("Space");
    await expect(toast(page, new RegExp(`to position 2 of 4 in ${title}`))).toBeVisible();
    await expect.poll(() => editorOrder(page)).toEqual([photoA, photoB, photoC, privatePhoto]);

    // Select, then "Move to" a position: the private photo to 3rd and back to the end keeps A, B, C in order for visitors.
    await tile(page, privatePhoto).getByRole("checkbox").check();
    const toolbar = page.getByRole("toolbar", { name: "Selected photos" });
    await toolbar.getByLabel(/^Move to position/).fill("3");
    await toolbar.getByRole("button", { name: "Move to", exact: true }).click();
    await expect(toast(page, new RegExp(`to position 3 of 4 in ${title}`))).toBeVisible();
    await expect.poll(() => editorOrder(page)).toEqual([photoA, photoB, privatePhoto, photoC]);
    await toolbar.getByRole("button", { name: "Clear selection" }).click();

    // The order survives a reload: it is the server's.
    await page.reload();
    expect(await editorOrder(page)).toEqual([photoA, photoB, privatePhoto, photoC]);

    // The cover: B, by the star on its tile.
    await tile(page, photoB).getByRole("button", { name: /as the cover$/ }).click();
    await expect(toast(page, new RegExp(`is now the cover of ${title}`))).toBeVisible();
    await expect(tile(page, photoB).getByRole("button", { name: /is the cover/ })).toHaveAttribute("aria-pressed", "true");

    // Public.
    const details = page.getByRole("form", { name: "Album details" });
    await details.getByLabel("Visibility").selectOption("public");
    await details.getByRole("button", { name: "Save details" }).click();
    await expect(toast(page, `Saved the visibility of ${title}`)).toBeVisible();
    await screenshot(page, "album-editor");
  } finally {
    await editorContext.close();
  }

  // A visitor.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  try {
    await visitor.goto("/albums");
    const card = visitor.getByTestId("album-card").filter({ hasText: title });
    await expect(card).toBeVisible();
    // The private photo is not counted.
    await expect(card.getByTestId("album-card-count")).toHaveText("3 photos");
    await card.getByRole("link").click();

    await expect(visitor.getByTestId("album-title")).toHaveText(title);
    await expect(visitor.getByTestId("album-photo-count")).toHaveText("3 photos");
    const tiles = visitor.getByTestId("grid-photo");
    await expect(tiles).toHaveCount(3);
    const slug = new URL(visitor.url()).pathname.split("/").at(-1)!;
    // In the album's order, each linked within the album; the private photo is not there.
    expect(await tiles.evaluateAll((links) => links.map((link) => link.getAttribute("href")))).toEqual(
      [photoA, photoB, photoC].map((id) => `/p/${id}?album=${slug}`),
    );
    await screenshot(visitor, "album-visitor");

    await tiles.first().click();
    await expect(visitor).toHaveURL(`${E2E_BASE_URL}/p/${photoA}?album=${slug}`);
    await expect(visitor.getByTestId("photo-albums").getByRole("link", { name: title })).toBeVisible();
    // The arrow keys follow the album: A → B → C (the gallery would go A → older ones), and back.
    const seen = [new URL(visitor.url()).pathname];
    for (const expected of [photoB, photoC]) {
      await visitor.keyboard.press("ArrowRight");
      await expect(visitor).toHaveURL(`${E2E_BASE_URL}/p/${expected}?album=${slug}`);
      seen.push(new URL(visitor.url()).pathname);
    }
    expect(seen).toEqual([photoA, photoB, photoC].map((id) => `/p/${id}`));
    // C is the album's last photo the visitor may see: no next.
    await expect(visitor.getByRole("link", { name: "Next photo" })).toHaveCount(0);
    await visitor.keyboard.press("ArrowLeft");
    await expect(visitor).toHaveURL(`${E2E_BASE_URL}/p/${photoB}?album=${slug}`);

    // The full-screen viewer moves in the album's order too, and the address keeps the album.
    await visitor.goto(`/p/${photoA}?album=${slug}`);
    await visitor.locator(".photo-stage-button").click();
    const viewer = visitor.getByRole("dialog", { name: "Photo viewer" });
    await expect(viewer.locator(".pswp__item[aria-hidden='false'] img.pswp__img:not(.pswp__img--placeholder)")).toBeVisible();
    await visitor.keyboard.press("ArrowRight");
    await expect(visitor).toHaveURL(`${E2E_BASE_URL}/p/${photoB}?album=${slug}`);
    await visitor.keyboard.press("ArrowRight");
    await expect(visitor).toHaveURL(`${E2E_BASE_URL}/p/${photoC}?album=${slug}`);
    await visitor.keyboard.press("Escape");
    await expect(viewer).toBeHidden();
    await expect(visitor).toHaveURL(`${E2E_BASE_URL}/p/${photoC}?album=${slug}`);
    await expect(visitor.getByRole("link", { name: "Previous photo" })).toHaveAttribute("href", `/p/${photoB}?album=${slug}`);

    // Without the album, the same photo moves through the gallery's stream instead.
    await visitor.goto(`/p/${photoB}`);
    await expect(visitor.getByRole("link", { name: "Next photo" })).toHaveAttribute("href", `/p/${photoA}`);
    await expect(visitor.getByRole("link", { name: "Previous photo" })).toHaveAttribute("href", `/p/${photoC}`);

    // The private photo: not there for a visitor, album or not; an unknown album is just the stream.
    expect((await visitor.goto(`/p/${privatePhoto}?album=${slug}`))?.status()).toBe(404);
    await visitor.goto(`/p/${photoB}?album=no-such-album`);
    await expect(visitor.getByRole("link", { name: "Next photo" })).toHaveAttribute("href", `/p/${photoA}`);
    expect((await visitor.goto("/albums/no-such-album"))?.status()).toBe(404);
  } finally {
    await visitorContext.close();
  }
});

// A non-public album's 404 and a renamed album's 308 from its old address are in tests/page-refusals.test.ts.

test("after an upload, the photos just uploaded go into an album from the upload page", async ({ browser }) => {
  test.setTimeout(90_000);
  const context = await newAdminContext(browser);
  const stamp = Date.now() % 1000000;
  const title = `Uploads ${stamp}`;
  try {
    const created = await context.request.post("/api/albums", { headers: { Origin: E2E_BASE_URL }, data: { title } });
    expect(created.status(), await created.text()).toBe(201);
    const { album } = (await created.json()) as { album: { id: string } };
    const page = await context.newPage();
    await page.goto("/admin/upload");
    const files = await Promise.all(
      [0, 1].map(async (index) => ({
        name: `upload-album-${stamp}-${index}.jpg`,
        mimeType: "image/jpeg",
        buffer: await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: (stamp + index * 90) % 256, g: 120, b: index * 100 } } }).jpeg().toBuffer(),
      })),
    );
    await page.locator("input.uppy-Dashboard-input").first().setInputFiles(files);
    await page.getByRole("button", { name: /^Upload 2 files/ }).click();
    const offer = page.getByTestId("add-to-album");
    await expect(offer).toContainText("Put the 2 photos you just uploaded in an album", { timeout: 30_000 });
    await offer.getByLabel("Album").selectOption({ label: title });
    await offer.getByRole("button", { name: "Add to album" }).click();
    await expect(toast(page, `2 photos added to ${title}`)).toBeVisible();
    const listed = await context.request.get(`/api/albums/${album.id}/photos`);
    expect(((await listed.json()) as { photos: unknown[] }).photos).toHaveLength(2);
  } finally {
    await context.close();
  }
});

test("the arrow keys move a lifted photo by the grid as drawn: Left/Right one place, Up/Down one row, at 390 and 1440 px", async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await newAdminContext(browser);
  const headers = { Origin: E2E_BASE_URL };
  const stamp = Date.now() % 1000000;
  try {
    // Nine small photos: two rows at 1440 px, five at 390 px (two to a row). The editor arranges
    // photos still being processed too, so nothing waits for processing.
    const ids: string[] = [];
    for (let index = 0; index < 9; index += 1) {
      const buffer = await sharp({ create: { width: 48, height: 32, channels: 3, background: { r: (stamp + index * 29) % 256, g: index * 27, b: 90 } } }).jpeg().toBuffer();
      const uploaded = await context.request.post("/api/upload", { headers, multipart: { file: { name: `grid-${stamp}-${index}.jpg`, mimeType: "image/jpeg", buffer } } });
      expect(uploaded.status(), await uploaded.text()).toBe(201);
      ids.push(((await uploaded.json()) as { photos: Array<{ id: string }> }).photos[0].id);
    }
    const created = await context.request.post("/api/albums", { headers, data: { title: `Grid ${stamp}` } });
    expect(created.status(), await created.text()).toBe(201);
    const { album } = (await created.json()) as { album: { id: string } };
    const added = await context.request.post(`/api/albums/${album.id}/photos`, { headers, data: { photoIds: ids } });
    expect(added.status(), await added.text()).toBe(200);

    const page = await context.newPage();
    const announced = page.locator('[id^="DndLiveRegion"]');
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/admin/albums/${album.id}`);
      // What the keys do is said on the page and to a screen reader on each handle.
      const keys = "Left and Right arrows move it one place, Up and Down one row";
      await expect(page.locator(".album-editor-hint")).toContainText(keys);
      await expect(page.getByTestId("album-editor-handle").first()).toHaveAccessibleDescription(new RegExp(keys));
      const columns = await page.getByTestId("album-editor-photo").evaluateAll((tiles) => {
        const top = tiles[0].getBoundingClientRect().top;
        return tiles.filter((each) => Math.abs(each.getBoundingClientRect().top - top) < 2).length;
      });
      expect(columns, `tiles in a row at ${width} px`).toBe(width === 390 ? 2 : 7);
      const order = await editorOrder(page);

      // The first photo: Down one row and Up again; Right along the row and past its end onto the
      // next row (dnd-kit's own keys stopped there), then Left back to the second place.
      const moveTo = async (key: string, position: number) => {
        await page.keyboard.press(key);
        await expect(announced).toHaveText(new RegExp(`would move to position ${position} of 9\\.$`));
      };
      await tile(page, order[0]).getByTestId("album-editor-handle").focus();
      await page.keyboard.press("Space");
      await expect(announced).toHaveText(/position 1 of 9\.$/);
      await moveTo("ArrowDown", columns + 1);
      await moveTo("ArrowUp", 1);
      for (let position = 2; position <= columns + 1; position += 1) await moveTo("ArrowRight", position);
      for (let position = columns; position >= 2; position -= 1) await moveTo("ArrowLeft", position);
      // The viewport only: a full-page screenshot resizes the window, which cancels a drag.
      if (width === 1440) await page.screenshot({ path: `test-results/screens/album-editor-keyboard-lifted-${width}.png` });
      await page.keyboard.press("Space");
      // Named by its file name (the owner's view of an untitled photo): the other size's toast
      // may still be showing.
      await expect(toast(page, new RegExp(`grid-${stamp}-${ids.indexOf(order[0])}\\.jpg\\) to position 2 of 9 in Grid`))).toBeVisible();
      const moved = [order[1], order[0], ...order.slice(2)];
      await expect.poll(() => editorOrder(page)).toEqual(moved);

      // The last photo: Up one row lands in the same column of the row above.
      const last = moved[8];
      const target = 9 - columns;
      await tile(page, last).getByTestId("album-editor-handle").focus();
      await page.keyboard.press("Space");
      await expect(announced).toHaveText(/position 9 of 9\.$/);
      await page.keyboard.press("ArrowUp");
      await expect(announced).toHaveText(new RegExp(`would move to position ${target} of 9\\.$`));
      await page.keyboard.press("Space");
      await expect(toast(page, new RegExp(`grid-${stamp}-${ids.indexOf(last)}\\.jpg\\) to position ${target} of 9 in Grid`))).toBeVisible();
      const expected = moved.slice(0, 8);
      expected.splice(target - 1, 0, last);
      await expect.poll(() => editorOrder(page)).toEqual(expected);
      if (width === 390) await screenshot(page, `album-editor-keyboard-${width}`);
    }
  } finally {
    await context.close();
  }
});
