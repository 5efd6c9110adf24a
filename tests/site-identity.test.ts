import sharp from "sharp";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { metaValue, readPageMeta, waitForOgImage } from "./helpers/page-meta";
import { uploadFiles, waitForProcessing } from "./helpers/photos";
import { signedInAdmin, TestClient } from "./helpers/test-client";

// The site's identity as a browser, a link preview and a home screen read it: Open Graph and
// Twitter tags and theme colours on the home page, an absolute og:image on NEXTAUTH_URL's host, the
// web manifest and the icons. Moved from e2e/identity.spec.ts: none of it needs a browser, and here
// it runs on both databases.

const baseUrl = inject("baseUrl");
const visitor = new TestClient();
let homeHtml: string;

beforeAll(async () => {
  const home = await visitor.request("/");
  expect(home.status).toBe(200);
  homeHtml = await home.text();
});

describe("the home page", () => {
  it("carries Open Graph and Twitter card tags, and theme colours for both themes", () => {
    const meta = readPageMeta(homeHtml);
    expect(metaValue(meta, "og:title")).toBe("Contact Sheet");
    expect(metaValue(meta, "og:description")).toBeTruthy();
    expect(metaValue(meta, "og:type")).toBe("website");
    expect(metaValue(meta, "og:site_name")).toBe("Contact Sheet");
    expect(metaValue(meta, "twitter:card")).toBeTruthy();
    const themeColours = [...homeHtml.matchAll(/<meta name="theme-color"[^>]*>/g)].map(([tag]) => ({
      media: /media="([^"]*)"/.exec(tag)?.[1],
      colour: /content="([^"]*)"/.exec(tag)?.[1],
    }));
    expect(themeColours).toEqual([
      { media: "(prefers-color-scheme: light)", colour: expect.stringMatching(/^#[0-9a-f]{6}$/) },
      { media: "(prefers-color-scheme: dark)", colour: expect.stringMatching(/^#[0-9a-f]{6}$/) },
    ]);
    expect(homeHtml).toContain('<link rel="manifest" href="/manifest.webmanifest"');
  });

  it("links a web manifest and icons that answer", async () => {
    const manifest = await visitor.request("/manifest.webmanifest");
    expect(manifest.status).toBe(200);
    const body = (await manifest.json()) as { name: string; display: string; icons: Array<{ src: string }> };
    expect(body).toMatchObject({ name: "Contact Sheet", display: "standalone" });
    expect(body.icons.length).toBeGreaterThan(0);
    for (const icon of body.icons) expect((await visitor.request(icon.src)).status, icon.src).toBe(200);
    const appleIcon = /<link rel="apple-touch-icon" href="([^"]+)"/.exec(homeHtml)?.[1];
    expect(appleIcon).toBeTruthy();
    expect((await visitor.request(appleIcon ?? "")).headers.get("content-type")).toBe("image/png");
    const svgIcon = /<link rel="icon" href="([^"]+)"[^>]*type="image\/svg\+xml"/.exec(homeHtml)?.[1];
    expect(svgIcon).toBeTruthy();
    expect((await visitor.request(svgIcon ?? "")).status).toBe(200);
  });
});

describe("a public photo's page", () => {
  it("names its og:image by an absolute URL on NEXTAUTH_URL's host, which answers", async () => {
    const admin = await signedInAdmin();
    // A small generated photo of its own (a colour no other run has), large enough for an Open Graph image.
    const background = { r: Math.floor(Math.random() * 256), g: Math.floor(Math.random() * 256), b: Math.floor(Math.random() * 256) };
    const bytes = new Uint8Array(await sharp({ create: { width: 1600, height: 900, channels: 3, background } }).jpeg({ quality: 60 }).toBuffer());
    const uploaded = await uploadFiles(admin, [{ bytes, name: "identity.jpg" }]);
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    const [{ id }] = ((await uploaded.json()) as { photos: Array<{ id: string }> }).photos;
    expect((await waitForProcessing(admin, id)).status).toBe("ready");
    const patched = await admin.request(`/api/photos/${id}`, { method: "PATCH", body: { json: { visibility: "public" } } });
    expect(patched.status, await patched.clone().text()).toBe(200);
    // The Open Graph image waits for processing's larger variants (seconds after the photo is ready).
    await waitForOgImage((path) => visitor.request(path), `/p/${id}`);
    const image = metaValue(readPageMeta(await (await visitor.request(`/p/${id}`)).text()), "og:image");
    // NEXTAUTH_URL is http://127.0.0.1:<port>; Next.js's own fallback would be http://localhost:<port>.
    expect(new URL(image ?? "").origin).toBe(baseUrl);
    expect((await visitor.request(new URL(image ?? "").pathname)).status).toBe(200);
  });
});
