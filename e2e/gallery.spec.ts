import { type Browser, expect, type Page, test } from "@playwright/test";
import sharp from "sharp";
import { deleteEveryPhoto } from "./seed-photos";
import { createUser, E2E_BASE_URL, screenshot, signIn } from "./helpers";

// The gallery `/` as people see it (issue 12): a justified grid to the edges whose rows suit the
// screen, flush on both sides but the last, endless scroll past the first 30, a focus ring on the
// photo in focus, a name for every image, and the owner's badge on what visitors cannot see.

const PUBLIC_PHOTOS = 32;
// Landscape, portrait, square and panorama, so rows mix shapes as real ones do.
const SHAPES: Array<[number, number]> = [[900, 600], [600, 900], [800, 800], [1200, 500], [1000, 750]];

async function uploadGeneratedPhotos(page: Page, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const [width, height] = SHAPES[index % SHAPES.length];
    const background = { r: (index * 53) % 256, g: (index * 97) % 256, b: (index * 29 + 80) % 256 };
    const buffer = await sharp({ create: { width, height, channels: 3, background } }).jpeg().toBuffer();
    const response = await page.request.post("/api/upload", {
      multipart: { file: { name: `gallery-${index}.jpg`, mimeType: "image/jpeg", buffer } },
      headers: { Origin: E2E_BASE_URL },
    });
    expect(response.status()).toBe(201);
    ids.push(((await response.json()) as { photos: Array<{ id: string }> }).photos[0].id);
  }
  return ids;
}

/** The tiles' boxes grouped into rows, and the grid's own box. */
async function gridRows(page: Page): Promise<{ rows: Array<Array<{ left: number; right: number; height: number }>>; gridLeft: number; gridRight: number }> {
  return page.evaluate(() => {
    const grid = document.querySelector(".photo-grid")!.getBoundingClientRect();
    const rows = new Map<number, Array<{ left: number; right: number; height: number }>>();
    for (const tile of document.querySelectorAll('[data-testid="grid-photo"]')) {
      const box = tile.getBoundingClientRect();
      const top = Math.round(box.top);
      rows.set(top, [...(rows.get(top) ?? []), { left: box.left, right: box.right, height: box.height }]);
    }
    return { rows: [...rows.values()], gridLeft: grid.left, gridRight: grid.right };
  });
}

async function visitorPage(browser: Browser, viewport: { width: number; height: number }, colorScheme: "light" | "dark"): Promise<Page> {
  const context = await browser.newContext({ viewport, colorScheme });
  return context.newPage();
}

test("visitors get a justified grid that suits the screen and scrolls on; the owner sees what visitors cannot", async ({ page, browser }) => {
  test.setTimeout(180_000);
  await deleteEveryPhoto(browser);
  const editor = await createUser(browser, "editor");
  await signIn(page, editor);
  const ids = await uploadGeneratedPhotos(page, PUBLIC_PHOTOS + 1);
  try {
    await expect
      .poll(async () => ((await (await page.request.get("/api/photos?owner=me&limit=100")).json()) as { photos: Array<{ status: string }> }).photos.filter((photo) => photo.status !== "ready").length, { timeout: 120_000 })
      .toBe(0);
    // The owner's newest photo stays private, so it is on their first page.
    const newest = ((await (await page.request.get("/api/photos?owner=me&limit=1")).json()) as { photos: Array<{ id: string }> }).photos[0].id;
    for (const id of ids.filter((candidate) => candidate !== newest)) {
      const response = await page.request.patch(`/api/photos/${id}`, { data: { visibility: "public" }, headers: { Origin: E2E_BASE_URL } });
      expect(response.status()).toBe(200);
    }

    await page.goto("/");
    await expect(page.locator(`a[href="/p/${newest}"]`).getByText("Private")).toBeVisible();
    await screenshot(page, "gallery-owner-1440-light");

    for (const [viewport, colorScheme, rowHeights] of [
      [{ width: 1440, height: 900 }, "light", [220, 320]],
      [{ width: 1440, height: 900 }, "dark", [220, 320]],
      [{ width: 390, height: 844 }, "light", [100, 170]],
      [{ width: 390, height: 844 }, "dark", [100, 170]],
    ] as const) {
      const visitor = await visitorPage(browser, viewport, colorScheme);
      const name = `gallery-visitor-${viewport.width}-${colorScheme}`;
      try {
        await visitor.goto("/");
        const tiles = visitor.getByTestId("grid-photo");
        await expect(tiles).toHaveCount(30);
        await expect(visitor.locator(`a[href="/p/${newest}"]`)).toHaveCount(0);
        await expect(visitor.getByText("Private")).toHaveCount(0);
        for (const alt of await tiles.locator("img").evaluateAll((images) => images.map((image) => image.getAttribute("alt")))) expect(alt).toBeTruthy();

        // Every row but the last fills the line from edge to edge: at least as tall as the row height
        // the grid aims for, taller when the next photo did not fit (a lone photo before a panorama
        // on a phone can be much taller; that is the price of a layout without measuring), and the
        // middle row height suits the screen.
        const target = await visitor.locator(".gallery").evaluate((gallery) => parseFloat(getComputedStyle(gallery).getPropertyValue("--grid-row-height")));
        const { rows, gridLeft, gridRight } = await gridRows(visitor);
        await screenshot(visitor, name);
        const heights = rows.slice(0, -1).map((row) => row[0].height).sort((left, right) => left - right);
        const median = heights[Math.floor(heights.length / 2)];
        expect(median).toBeGreaterThanOrEqual(rowHeights[0]);
        expect(median).toBeLessThanOrEqual(rowHeights[1]);
        for (const row of rows.slice(0, -1)) {
          expect(Math.abs(row[0].left - gridLeft)).toBeLessThan(1.5);
          expect(Math.abs(row[row.length - 1].right - gridRight)).toBeLessThan(1.5);
          for (const tile of row) expect(tile.height).toBeGreaterThanOrEqual(target - 0.5);
        }
        // The last row keeps the row height instead of stretching its photos across the page.
        for (const tile of rows[rows.length - 1]) expect(tile.height).toBeLessThanOrEqual(target + 0.5);
        expect(await visitor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

        // Endless scroll: the rest arrives when the reader nears the end.
        await visitor.getByTestId("grid-photo").last().scrollIntoViewIfNeeded();
        await visitor.mouse.wheel(0, 20_000);
        await expect(tiles).toHaveCount(PUBLIC_PHOTOS);

        // The photo in focus shows the ring.
        await tiles.first().focus();
        await expect(tiles.first()).toBeFocused();
        expect(await tiles.first().evaluate((tile) => getComputedStyle(tile).outlineStyle)).toBe("solid");
      } finally {
        await visitor.context().close();
      }
    }
  } finally {
    // The gallery is shared by every spec: photos left behind would show up in theirs.
    for (const id of ids) await page.request.delete(`/api/photos/${id}`, { headers: { Origin: E2E_BASE_URL } });
  }
});
