import { expect, test } from "@playwright/test";
import { E2E_BASE_URL } from "./constants";
import { seedPublicPhotos } from "./seed-photos";

/** The content of `<meta property|name="key">` in an HTML document, or null. */
function metaContent(html: string, key: string): string | null {
  const tag = new RegExp(`<meta[^>]+(?:property|name)="${key.replace(/[.:]/g, "\\$&")}"[^>]*>`).exec(html)?.[0];
  return tag ? (/content="([^"]*)"/.exec(tag)?.[1] ?? null) : null;
}

test("the home page carries Open Graph and Twitter card tags and theme colours for both themes", async ({ request }) => {
  const html = await (await request.get("/")).text();
  expect(metaContent(html, "og:title")).toBe("Contact Sheet");
  expect(metaContent(html, "og:description")).toBeTruthy();
  expect(metaContent(html, "og:type")).toBe("website");
  expect(metaContent(html, "og:site_name")).toBe("Contact Sheet");
  expect(metaContent(html, "twitter:card")).toBeTruthy();
  const themeColours = [...html.matchAll(/<meta name="theme-color"[^>]*>/g)].map(([tag]) => ({
    media: /media="([^"]*)"/.exec(tag)?.[1],
    colour: /content="([^"]*)"/.exec(tag)?.[1],
  }));
  expect(themeColours).toEqual([
    { media: "(prefers-color-scheme: light)", colour: expect.stringMatching(/^#[0-9a-f]{6}$/) },
    { media: "(prefers-color-scheme: dark)", colour: expect.stringMatching(/^#[0-9a-f]{6}$/) },
  ]);
  expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest"');
});

test("a public photo's og:image is an absolute URL on NEXTAUTH_URL's host", async ({ browser, request }) => {
  const [id] = await seedPublicPhotos(browser, 1);
  // The Open Graph image waits for processing's larger variants (seconds after the photo is ready).
  let image: string | null = null;
  await expect
    .poll(async () => (image = metaContent(await (await request.get(`/p/${id}`)).text(), "og:image")), { timeout: 60_000 })
    .not.toBeNull();
  // NEXTAUTH_URL is http://127.0.0.1:<port>; Next.js's own fallback would be http://localhost:<port>.
  expect(new URL(image ?? "").origin).toBe(E2E_BASE_URL);
  expect((await request.get(new URL(image ?? "").pathname)).status()).toBe(200);
});

test("the web manifest and the icons answer", async ({ request }) => {
  const manifest = await request.get("/manifest.webmanifest");
  expect(manifest.status()).toBe(200);
  const body = (await manifest.json()) as { name: string; display: string; icons: Array<{ src: string }> };
  expect(body).toMatchObject({ name: "Contact Sheet", display: "standalone" });
  for (const icon of body.icons) expect((await request.get(icon.src)).status(), icon.src).toBe(200);
  const html = await (await request.get("/")).text();
  const appleIcon = /<link rel="apple-touch-icon" href="([^"]+)"/.exec(html)?.[1];
  expect(appleIcon).toBeTruthy();
  expect((await request.get(appleIcon ?? "")).headers()["content-type"]).toBe("image/png");
  const svgIcon = /<link rel="icon" href="([^"]+)"[^>]*type="image\/svg\+xml"/.exec(html)?.[1];
  expect((await request.get(svgIcon ?? "/icon.svg")).status()).toBe(200);
});
