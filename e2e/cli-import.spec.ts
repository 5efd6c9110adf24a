import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { createUser, E2E_BASE_URL, signIn, toast } from "./helpers";

// Moving in as a photographer does (issue 28): an API token made on the tokens page, the real
// `contact-sheet import --albums folders` run against this server on a small tree of dated folders
// (one photo with a Lightroom XMP sidecar) and a Google Takeout year folder (one photo with its
// supplemental-metadata JSON), then what the import made, seen in the browser: the nested albums
// and their photos, the sidecar's title, keywords and rating, the Takeout title and date. A second
// run sends nothing. The import's rules and bad input are tested over HTTP, on both databases, in
// tests/cli-import.test.ts; this is the one run a person would see.
// The photos belong to a new editor and stay private (the site's default), so no other spec sees them.

const COMMAND = path.resolve("bin/contact-sheet.mjs");
const CORPUS_JPEGS = path.resolve("../shared/corpus/exif-samples/jpg");
const SCREENS = path.resolve("test-results/screens");

const SIDECAR_TITLE = "Tram 28 climbing to Graça";
const TAKEOUT_NAME = "PXL_20210704_213000000.jpg";
// Its JSON's name as Takeout writes it since late 2024: `name.supplemental-metadata` cut to 46
// characters, then `.json` (tests/helpers/takeout-corpus.ts states the rule for every form).
const TAKEOUT_JSON = "PXL_20210704_213000000.jpg.supplemental-metada.json";
const TAKEOUT_TITLE = "Fireworks over the Tagus";
// 4 July 2021, 21:30 UTC: what Takeout's photoTakenTime says (the file's own EXIF says 2004).
const TAKEOUT_TAKEN_AT_SECONDS = 1_625_434_200;

/** Lightroom's sidecar (`name.xmp`, its default form): a title, two keywords, four stars. */
function lightroomSidecar(): string {
  return `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="4">
<dc:title><rdf:Alt><rdf:li xml:lang="x-default">${SIDECAR_TITLE}</rdf:li></rdf:Alt></dc:title>
<dc:subject><rdf:Bag><rdf:li>Lisbon</rdf:li><rdf:li>Trams</rdf:li></rdf:Bag></dc:subject>
</rdf:Description></rdf:RDF></x:xmpmeta>
`;
}

/**
 * The tree a photographer points the command at, from real corpus JPEGs:
 *   Pictures/2019/2019-06-14 Lisbon/{Canon_40D.jpg, Canon_40D.xmp, Kodak_CX7530.jpg}
 *   Pictures/2020/2020-02-01 Porto/Nikon_COOLPIX_P1.jpg
 *   Takeout/Google Photos/Photos from 2021/{PXL_….jpg, its JSON under the name Takeout cuts to 51 characters}
 */
function writeLibrary(root: string): { pictures: string; takeout: string } {
  const pictures = path.join(root, "Pictures");
  const lisbon = path.join(pictures, "2019", "2019-06-14 Lisbon");
  const porto = path.join(pictures, "2020", "2020-02-01 Porto");
  const year = path.join(root, "Takeout", "Google Photos", "Photos from 2021");
  for (const folder of [lisbon, porto, year]) fs.mkdirSync(folder, { recursive: true });
  fs.copyFileSync(path.join(CORPUS_JPEGS, "Canon_40D.jpg"), path.join(lisbon, "Canon_40D.jpg"));
  fs.writeFileSync(path.join(lisbon, "Canon_40D.xmp"), lightroomSidecar());
  fs.copyFileSync(path.join(CORPUS_JPEGS, "Kodak_CX7530.jpg"), path.join(lisbon, "Kodak_CX7530.jpg"));
  fs.copyFileSync(path.join(CORPUS_JPEGS, "Nikon_COOLPIX_P1.jpg"), path.join(porto, "Nikon_COOLPIX_P1.jpg"));
  fs.copyFileSync(path.join(CORPUS_JPEGS, "Fujifilm_FinePix6900ZOOM.jpg"), path.join(year, TAKEOUT_NAME));
  fs.writeFileSync(
    path.join(year, TAKEOUT_JSON),
    JSON.stringify({ title: TAKEOUT_TITLE, photoTakenTime: { timestamp: String(TAKEOUT_TAKEN_AT_SECONDS), formatted: "4 Jul 2021, 21:30:00 UTC" } }),
  );
  return { pictures, takeout: path.join(root, "Takeout") };
}

/** `npx contact-sheet import …` as typed in a terminal (its output not a terminal: plain lines), with the token in the environment. */
function runImport(home: string, token: string, paths: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [COMMAND, "import", ...paths, "--albums", "folders"], {
      // HOME is the test's own folder: the state file goes to its ~/.config, never the person's running the tests.
      env: { PATH: process.env.PATH ?? "", HOME: home, NODE_ENV: "production", CONTACT_SHEET_URL: E2E_BASE_URL, CONTACT_SHEET_TOKEN: token },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** Opens the album card with this title on the page shown now. */
async function openAlbumCard(page: Page, title: string): Promise<void> {
  await page.getByTestId("album-card").filter({ has: page.getByText(title, { exact: true }) }).getByRole("link").click();
  await expect(page.getByTestId("album-title")).toHaveText(title);
}

async function screenshots(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENS, { recursive: true });
  for (const size of [{ width: 390, height: 844 }, { width: 1440, height: 900 }]) {
    await page.setViewportSize(size);
    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await page.screenshot({ path: path.join(SCREENS, `${name}-${size.width}-${theme}.png`), fullPage: true, animations: "disabled" });
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
}

test("a photographer makes a token, imports a folder tree and a Takeout with the command, sees them on the site, and a second run sends nothing", async ({ page }) => {
  test.setTimeout(120_000);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "cs-e2e-cli-import-"));
  try {
    const { pictures, takeout } = writeLibrary(home);
    const editor = await createUser(page.context().browser()!, "editor");
    await signIn(page, editor, { callbackPath: "/admin/tokens" });

    let token = "";
    await test.step("make a token for the import on the tokens page", async () => {
      const form = page.getByRole("form", { name: "Create an API token" });
      await form.getByLabel("Name").fill("Moving in");
      // The README's scopes for an import with albums: upload, and reading and changing albums.
      for (const scope of ["upload", "photos:read", "photos:write"]) await form.getByLabel(scope, { exact: true }).check();
      await form.getByRole("button", { name: "Create token" }).click();
      await expect(toast(page, "Created token “Moving in”")).toBeVisible();
      token = (await page.getByTestId("new-token-secret").textContent()) ?? "";
      expect(token).toMatch(/^cs_/);
    });

    await test.step("the first run uploads the four photos and makes the five folder albums", async () => {
      const run = await runImport(home, token, [pictures, takeout]);
      expect(run.code, run.output).toBe(0);
      expect(run.output).toContain("uploaded 4, 0 already there, 0 skipped, 0 failed, 5 albums created");
    });

    await test.step("the nested albums and their photos, on the site", async () => {
      await page.goto("/albums");
      await openAlbumCard(page, "Pictures");
      const subAlbums = page.getByRole("list", { name: "Albums in Pictures" });
      await expect(subAlbums.getByTestId("album-card")).toHaveText([/2019/, /2020/]);
      await openAlbumCard(page, "2019");
      await openAlbumCard(page, "2019-06-14 Lisbon");
      await expect(page.getByRole("navigation", { name: "Breadcrumbs" })).toHaveText(/Albums.*Pictures.*2019.*2019-06-14 Lisbon/);
      // Listed at once, their images once the worker has made the variants (a few seconds).
      const tiles = page.getByTestId("grid-photo");
      await expect(tiles).toHaveCount(2);
      await expect(async () => {
        await page.reload();
        await expect(tiles.getByRole("img")).toHaveCount(2, { timeout: 1000 });
      }).toPass({ timeout: 45_000 });
      await expect(tiles.getByRole("img", { name: SIDECAR_TITLE })).toBeVisible();
      await screenshots(page, "cli-import-album");
    });

    await test.step("the XMP sidecar's title, keywords and rating on the photo's page", async () => {
      await page.getByRole("img", { name: SIDECAR_TITLE }).click();
      await expect(page.getByTestId("photo-title")).toHaveText(SIDECAR_TITLE);
      await expect(page.getByTestId("photo-tags").getByRole("link")).toHaveText(["Lisbon", "Trams"]);
      await expect(page.getByTestId("photo-albums")).toContainText("2019-06-14 Lisbon");
      const rating = page.getByRole("form", { name: "Edit photo" }).getByRole("group", { name: "Rating" });
      await expect(rating.getByRole("radio", { name: "4 stars" })).toBeChecked();
    });

    await test.step("the Takeout photo's title and date, found in the library", async () => {
      await page.goto("/admin/photos");
      await page.getByRole("option").filter({ hasText: TAKEOUT_TITLE }).click();
      await page.getByRole("link", { name: "Open photo page" }).click();
      await expect(page.getByTestId("photo-title")).toHaveText(TAKEOUT_TITLE);
      await expect(page.getByTestId("exif-date")).toHaveText("4 July 2021, 21:30");
      // No album: Google's year folders are not the owner's albums.
      await expect(page.getByTestId("photo-albums")).toHaveCount(0);
    });

    await test.step("a second run over the same folders sends nothing", async () => {
      const again = await runImport(home, token, [pictures, takeout]);
      expect(again.code, again.output).toBe(0);
      // Nothing to send (the state file knew every file; tests/cli-import.test.ts proves none is read again).
      expect(again.output).toContain("hashing (4 unchanged, not read): 0 files, 0 B");
      expect(again.output).toContain("uploading: 0 files, 0 B");
      expect(again.output).toContain("uploaded 0, 4 already there, 0 skipped, 0 failed, 0 albums created");
    });
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});
