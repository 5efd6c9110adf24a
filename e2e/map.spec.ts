import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { type Browser, expect, test } from "@playwright/test";
import { E2E_BASE_URL, newAdminContext } from "./helpers";

// /map (issue 31) in a browser, at a phone's width and a desktop's: the map opens fitted to the
// viewer's photos, moves with the arrow keys when focused, a group of photos is a named button that
// zooms in when pressed, its photos become links with their thumbnails, and one opens the photo's
// page. axe finds nothing in either theme. The three photos are the admin's, in Hawaii, where no
// other spec puts one, so their group is theirs alone. The finer (1:50m) coastlines are fetched
// only once the reader has zoomed in, never with the page.

const CORPUS_JPEGS = path.resolve("../shared/corpus/exif-samples/jpg");
const FILES = ["tests/11-tests.jpg", "tests/32-lens_data.jpeg", "tests/33-type_error.jpg"];
const SIZES = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1440, height: 900 },
] as const;
const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

async function seedHawaii(browser: Browser): Promise<void> {
  const context = await newAdminContext(browser);
  try {
    for (const [index, name] of FILES.entries()) {
      const uploaded = await context.request.post("/api/upload", {
        headers: { Origin: E2E_BASE_URL },
        multipart: { file: { name: path.basename(name), mimeType: "image/jpeg", buffer: fs.readFileSync(path.join(CORPUS_JPEGS, name)) } },
      });
      const body = (await uploaded.json()) as { photos?: Array<{ id: string }> };
      expect(uploaded.status(), JSON.stringify(body)).toBe(201);
      const id = body.photos?.[0]?.id ?? "";
      await expect
        .poll(async () => ((await (await context.request.get(`/api/photos/${id}`)).json()) as { photo: { status: string } }).photo.status, { timeout: 60_000 })
        .toBe("ready");
      const patched = await context.request.patch(`/api/photos/${id}`, {
        headers: { Origin: E2E_BASE_URL },
        data: { title: `Hawaii ${index + 1}`, location: { latitude: 19.72 + index * 0.002, longitude: -155.08 - index * 0.002 } },
      });
      expect(patched.status(), await patched.text()).toBe(200);
    }
  } finally {
    await context.close();
  }
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  await seedHawaii(browser);
});

for (const size of SIZES) {
  test(`the map opens a group and then a photo, by touch size ${size.width} px`, async ({ browser }) => {
    // Two axe audits and a WebGL map drawn in software: slow on a shared 2-core machine.
    test.setTimeout(180_000);
    const context = await newAdminContext(browser);
    const page = await context.newPage();
    try {
      // What went wrong in the browser, for the failure message: the map draws with WebGL in a worker.
      const problems: string[] = [];
      page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
      page.on("console", (message) => {
        if (message.type() === "error") problems.push(`console: ${message.text()}`);
      });
      page.on("requestfailed", (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ""}`));
      // maplibre fetches the outlines from its worker: the context sees those requests too.
      const detailedShapes: string[] = [];
      context.on("request", (request) => {
        if (request.url().includes("/api/map/countries/50m-")) detailedShapes.push(request.url());
      });
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.goto("/map");
      await expect(page.getByRole("heading", { name: "Map", level: 1 })).toBeVisible();
      await expect(page.getByTestId("map-status"), problems.join("\n")).toContainText(/photos? in view/, { timeout: 20_000 });
      for (const theme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: theme });
        await page.screenshot({ path: `test-results/screens/map-${size.name}-${theme}.png` });
        const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
        expect(results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(" | ")}`)).toEqual([]);
      }
      await page.emulateMedia({ colorScheme: "light" });
      expect(detailedShapes, "the 1:50m coastlines before the reader moved the map").toEqual([]);

      // The map opens on the viewer's photos: Hawaii's group is in view without moving the map,
      // on a phone too (where a third of the world's width fits).
      const outerGroup = page.getByRole("button", { name: /^3 photos\b.*Zoom in$/ });
      await expect(outerGroup).toBeVisible();
      // Focused, the map moves with the arrow keys: west by one press, so the group slides right.
      const before = await outerGroup.boundingBox();
      await page.locator(".maplibregl-canvas").focus();
      await page.keyboard.press("ArrowLeft");
      await expect.poll(async () => ((await outerGroup.boundingBox())?.x ?? 0) - (before?.x ?? 0), { timeout: 10_000 }).toBeGreaterThan(40);
      await page.screenshot({ path: `test-results/screens/map-${size.name}-focused.png` });
      await outerGroup.click();
      // A group opens into smaller groups and single photos: open the groups until a photo shows.
      const photo = page.getByRole("link", { name: /^Hawaii \d$/ }).first();
      for (let opened = 0; opened < 4 && !(await photo.isVisible()); opened += 1) {
        await expect(page.getByTestId("map-status")).toContainText(/in view/);
        const inner = page.getByRole("button", { name: /^\d+ photos\b.*Zoom in$/ }).first();
        // Either may show, or both (a photo beside a smaller group): the first of them is enough.
        await expect(photo.or(inner).first()).toBeVisible({ timeout: 20_000 });
        if (!(await photo.isVisible())) await inner.click();
      }
      await expect(photo).toBeVisible({ timeout: 20_000 });
      // After a group opens, focus moves to its first marker, so a keyboard user goes on from there.
      await expect(page.locator(".map-marker:focus")).toHaveCount(1);
      // Zoomed in by the reader: the finer coastlines replaced the coarse ones, fetched once.
      await expect.poll(() => detailedShapes.length, { timeout: 20_000 }).toBe(1);
      await page.screenshot({ path: `test-results/screens/map-${size.name}-opened.png` });
      await page.emulateMedia({ colorScheme: "dark" });
      await page.screenshot({ path: `test-results/screens/map-${size.name}-opened-dark.png` });
      await page.emulateMedia({ colorScheme: "light" });
      await photo.click();
      await expect(page).toHaveURL(/\/p\/[^/]+$/);
    } finally {
      await context.close();
    }
  });
}
