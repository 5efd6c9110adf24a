import fs from "node:fs";
import path from "node:path";
import { type Browser, expect } from "@playwright/test";
import { E2E_BASE_URL, newAdminContext } from "./helpers";

// Playwright runs from the checkout (where playwright.config.ts is); the corpus sits beside it.
const CORPUS_JPEGS = path.resolve("../shared/corpus/exif-samples/jpg");
// Tags for the seeded photos, so /tags and /tags/travel have photos to show (one each, two, all).
const SEED_TAGS = [["Travel", "Café", "Long exposure"], ["Travel", "Portrait"], ["Travel", "Café"], ["Travel"]];
// Full-size photos of different shapes (landscape, portrait, square-ish, panorama), so the pages
// and screenshots look as they do with a real camera's photos, not with 100-pixel thumbnails.
const SEED_FILES = ["hdr/iphone_hdr_YES.jpg", "tests/28-hex_value.jpg", "mobile/jolla.jpg", "mobile/HMD_Nokia_8.3_5G.jpg"];

/**
 * Uploads a few corpus photos as the e2e admin through the upload API, makes them public and waits
 * until they are processed, so the gallery and photo pages show real photos. Answers their ids.
 */
export async function seedPublicPhotos(browser: Browser, count = 3): Promise<string[]> {
  const context = await newAdminContext(browser);
  try {
    const ids: string[] = [];
    for (const name of SEED_FILES.slice(0, count)) {
      const uploaded = await context.request.post("/api/upload", {
        headers: { Origin: E2E_BASE_URL },
        multipart: { file: { name: path.basename(name), mimeType: "image/jpeg", buffer: fs.readFileSync(path.join(CORPUS_JPEGS, name)) } },
      });
      // Seeding twice in one run is harmless: the admin's own duplicate is answered with its id.
      const body = (await uploaded.json()) as { photos?: Array<{ id: string }> };
      expect(uploaded.status(), JSON.stringify(body)).toBe(201);
      ids.push(body.photos?.[0]?.id ?? "");
    }
    for (const id of ids) {
      const patched = await context.request.patch(`/api/photos/${id}`, { headers: { Origin: E2E_BASE_URL }, data: { visibility: "public" } });
      expect(patched.status(), await patched.text()).toBe(200);
      const names = SEED_TAGS[ids.indexOf(id) % SEED_TAGS.length];
      const tagged = await context.request.put(`/api/photos/${id}/tags`, { headers: { Origin: E2E_BASE_URL }, data: { names } });
      expect(tagged.status(), await tagged.text()).toBe(200);
      await expect
        .poll(async () => ((await (await context.request.get(`/api/photos/${id}`)).json()) as { photo: { status: string } }).photo.status, {
          timeout: 60_000,
          intervals: [250],
        })
        .toBe("ready");
    }
    return ids;
  } finally {
    await context.close();
  }
}

/**
 * Deletes every photo on the site as the e2e admin, for a test that counts what the gallery shows:
 * the suites share one server, and others leave their photos behind.
 */
export async function deleteEveryPhoto(browser: Browser): Promise<void> {
  const context = await newAdminContext(browser);
  try {
    for (;;) {
      const listed = await context.request.get("/api/photos?limit=100");
      expect(listed.status()).toBe(200);
      const { photos } = (await listed.json()) as { photos: Array<{ id: string }> };
      if (photos.length === 0) return;
      for (const { id } of photos) {
        const deleted = await context.request.delete(`/api/photos/${id}`, { headers: { Origin: E2E_BASE_URL } });
        expect(deleted.status(), await deleted.text()).toBe(204);
      }
    }
  } finally {
    await context.close();
  }
}
