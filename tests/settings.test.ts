import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploadCorpusFile, waitForProcessing } from "./helpers/photos";
import { signedInAdmin, signedInAs, TestClient } from "./helpers/test-client";

// The site's settings (/api/admin/settings): validated with clear 422s and nothing half-written,
// admins only, audited, and in effect at once, also on the visitor's cached `/`.

interface Settings {
  siteTitle: string;
  siteDescription: string;
  defaultVisibility: string;
  showLocationByDefault: boolean;
  allowDownloads: boolean;
  analyticsScriptUrl: string | null;
  auditRetentionDays: number;
}

let admin: TestClient;
let original: Settings;

async function readSettings(): Promise<Settings> {
  const response = await admin.request("/api/admin/settings");
  expect(response.status).toBe(200);
  return ((await response.json()) as { settings: Settings }).settings;
}

function patchSettings(client: TestClient, body: unknown): Promise<Response> {
  return client.request("/api/admin/settings", { method: "PATCH", body: { json: body } });
}

beforeAll(async () => {
  admin = await signedInAdmin();
  original = await readSettings();
});

// Other test files share this server: leave the settings as they were found.
afterAll(async () => {
  const response = await patchSettings(admin, original);
  expect(response.status).toBe(200);
});

describe("reading the settings", () => {
  it("answers the defaults: the product's title, private new uploads, no downloads, a year of audit", async () => {
    expect(original).toMatchObject({
      siteTitle: "Contact Sheet",
      defaultVisibility: "private",
      showLocationByDefault: false,
      analyticsScriptUrl: null,
      auditRetentionDays: 365,
    });
  });
});

describe("changing the settings", () => {
  it("refuses bad input with 422 and a message naming the problem, and changes nothing", async () => {
    const before = await readSettings();
    const cases: Array<[unknown, RegExp]> = [
      [{ defaultVisibility: "everyone" }, /visibility must be one of/i],
      [{ analyticsScriptUrl: "javascript:alert(1)" }, /http:\/\/ or https:\/\//],
      [{ analyticsScriptUrl: "ftp://example.com/a.js" }, /http:\/\/ or https:\/\//],
      [{ siteTitle: "x".repeat(81) }, /too long/],
      [{ siteTitle: "   " }, /cannot be empty/],
      [{ auditRetentionDays: 0 }, /at least 1 day/],
      [{ auditRetentionDays: 1.5 }, /whole number/],
      // One good field beside a bad one: the good one is not applied either.
      [{ siteTitle: "Half written", defaultVisibility: "nobody" }, /visibility/],
      [{ unknownSetting: true }, /./],
      [{}, /at least one setting/],
    ];
    for (const [body, message] of cases) {
      const response = await patchSettings(admin, body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      const error = ((await response.json()) as { error: { code: string; message: string } }).error;
      expect(error.code).toBe("INVALID_INPUT");
      expect(error.message, JSON.stringify(body)).toMatch(message);
    }
    expect(await readSettings()).toEqual(before);
  });

  it("is for admins only: 403 for an editor, 401 for nobody", async () => {
    const { client: editor } = await signedInAs("editor");
    expect((await patchSettings(editor, { siteTitle: "Editor's site" })).status).toBe(403);
    expect((await editor.request("/api/admin/settings")).status).toBe(403);
    expect((await patchSettings(new TestClient(), { siteTitle: "Nobody's site" })).status).toBe(401);
    expect((await readSettings()).siteTitle).toBe(original.siteTitle);
  });

  it("takes an http(s) analytics URL, and empty turns it back to the environment's", async () => {
    let response = await patchSettings(admin, { analyticsScriptUrl: "https://stats.example.com/script.js" });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { settings: Settings }).settings.analyticsScriptUrl).toBe("https://stats.example.com/script.js");
    response = await patchSettings(admin, { analyticsScriptUrl: "" });
    expect(((await response.json()) as { settings: Settings }).settings.analyticsScriptUrl).toBeNull();
  });

  // The title reaches every page's <title>, the feeds and previews: the same cleaning as every
  // other title (src/validation/input-text.ts). The description is a textarea: line feeds stay.
  it("stores the title and description without control characters, the title on one line", async () => {
    const response = await patchSettings(admin, { siteTitle: " Holiday\r\n\u0007pictures\u001b ", siteDescription: " Sea\u0007 and\r\nsun " });
    expect(response.status).toBe(200);
    expect(await readSettings()).toMatchObject({ siteTitle: "Holidaypictures", siteDescription: "Sea and\nsun" });
    expect((await patchSettings(admin, { siteTitle: "\r\n\u0007 " })).status).toBe(422);
  });

  it("shows a new site title on the visitor's `/` at once, although `/` is kept in memory", async () => {
    const visitor = new TestClient();
    // Twice: the second answer comes from the page cache.
    for (let index = 0; index < 2; index += 1) expect((await visitor.request("/")).status).toBe(200);
    const title = `Settings test ${Date.now()} <b>&</b>`;
    const response = await patchSettings(admin, { siteTitle: title, siteDescription: "Pictures of the test run" });
    expect(response.status).toBe(200);
    const html = await (await visitor.request("/")).text();
    const escaped = title.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
    expect(html).toContain(`<title>${escaped}</title>`);
    expect(html).toMatch(new RegExp(`class="site-title"[^>]*>${escaped.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}<`));
    expect(html).toContain('content="Pictures of the test run"');
    expect(html).not.toContain("<b>&</b>");
    // Other pages' titles follow the template.
    const signIn = await (await visitor.request("/signin")).text();
    expect(signIn).toContain(`· ${escaped}</title>`);
  });

  it("gives new uploads the default visibility and location choice", async () => {
    expect((await patchSettings(admin, { defaultVisibility: "members", showLocationByDefault: true })).status).toBe(200);
    const { client: editor } = await signedInAs("editor");
    const uploaded = await uploadCorpusFile(editor, "exif-samples/jpg/Nikon_D70.jpg");
    const photo = (await waitForProcessing(editor, uploaded.id)) as unknown as { visibility: string; showLocation: boolean };
    expect(photo.visibility).toBe("members");
    expect(photo.showLocation).toBe(true);

    expect((await patchSettings(admin, { defaultVisibility: "private", showLocationByDefault: false })).status).toBe(200);
    const later = await uploadCorpusFile(editor, "exif-samples/jpg/Canon_DIGITAL_IXUS_400.jpg");
    const laterPhoto = (await waitForProcessing(editor, later.id)) as unknown as { visibility: string; showLocation: boolean };
    expect(laterPhoto.visibility).toBe("private");
    expect(laterPhoto.showLocation).toBe(false);
  });

  it("is audited with the fields before and after, by whom and from where", async () => {
    const before = await readSettings();
    const client = new TestClient();
    await client.signIn("admin@example.test", "admin-password-123");
    const response = await client.request("/api/admin/settings", {
      method: "PATCH",
      body: { json: { auditRetentionDays: before.auditRetentionDays + 1, allowDownloads: before.allowDownloads } },
      headers: { "User-Agent": "settings-test-agent/1.0" },
    });
    expect(response.status).toBe(200);
    const audit = await client.request("/api/admin/audit?action=settings.update&limit=1");
    const { entries } = (await audit.json()) as { entries: Array<Record<string, unknown>> };
    expect(entries[0]).toMatchObject({
      action: "settings.update",
      targetType: "settings",
      address: client.address,
      userAgent: "settings-test-agent/1.0",
      actor: { email: "admin@example.test" },
      // Only what changed: allowDownloads was sent as it was.
      details: { before: { auditRetentionDays: before.auditRetentionDays }, after: { auditRetentionDays: before.auditRetentionDays + 1 } },
    });
  });
});
