// Renders each shared component of the design system from app/styles/*.css in Chromium, in the
// light and the dark theme, and saves one PNG per component and theme under docs/design/ for
// docs/design.md. Run after changing tokens.css or components.css:  node scripts/design-screenshots.mjs
import fs from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";

const root = path.resolve(import.meta.dirname, "..");
const outputDirectory = path.join(root, "docs", "design");
const styles = ["tokens", "base", "components", "shell"].map((name) => fs.readFileSync(path.join(root, "app", "styles", `${name}.css`), "utf8")).join("\n");

// The markup each React component renders (kept to its classes and structure).
const SPECIMENS = {
  colours: `<div class="specimen-swatches">${[
    "bg", "surface", "surface-sunken", "ink", "ink-muted", "line", "line-strong", "accent", "danger", "success", "warning", "stage", "placeholder",
  ]
    .map((token) => `<div class="swatch"><span style="background: var(--color-${token})"></span><code>--color-${token}</code></div>`)
    .join("")}</div>`,
  type: `<div><p style="font-size:var(--text-3xl);font-weight:var(--weight-bold);margin:0">Contact Sheet</p>
    <h1>Heading one, --text-2xl</h1><h2 style="margin-top:0">Heading two, --text-xl</h2><h3 style="margin-top:0">Heading three, --text-lg</h3>
    <p>Body text, --text-base, for captions and descriptions that a reader may take a moment over.</p>
    <p class="muted" style="font-size:var(--text-sm)">Muted small text, --text-sm, for secondary details.</p>
    <p style="font-family:var(--font-mono);font-size:var(--text-sm)">ƒ/2.8 · 1/250 s · ISO 400 · 35 mm (--font-mono)</p></div>`,
  buttons: `<div class="actions"><button>Primary</button><button class="secondary">Secondary</button><button class="button-ghost">Ghost</button><button class="danger">Delete</button><button class="button-small secondary">Small</button><button disabled>Disabled</button>
    <button class="button-ghost icon-button" aria-label="Theme"><svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.8"><path d="M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5Z"/></svg></button></div>`,
  fields: `<form class="form" style="max-width:22rem"><label class="field">Title<input value="Morning on the Tagus"></label>
    <label class="field">Visibility<select><option>public</option></select></label>
    <label class="field">Alt text<textarea rows="2">A ferry crossing the river at dawn</textarea><span class="field-hint">Describe the photo for people who cannot see it.</span></label>
    <label class="field">E-mail<input aria-invalid="true" value="not-an-address"><span class="field-error">Enter an e-mail address.</span></label>
    <label class="checkbox-field"><input type="checkbox" checked> Show the location</label></form>`,
  badges: `<div class="actions"><span class="badge">Editor</span><span class="badge badge-success">Ready</span><span class="badge badge-warning">Processing</span><span class="badge badge-danger">Failed</span></div>`,
  notices: `<div style="display:grid;gap:var(--space-3);max-width:28rem"><p class="notice">This photo is still being processed.</p><p class="notice notice-success">Saved.</p><p class="notice notice-error" role="alert">The e-mail or password is not right.</p></div>`,
  card: `<section class="card" style="margin:0"><h1>Sign in to Contact Sheet</h1><form class="form"><label>E-mail<input></label><button>Sign in</button></form></section>`,
  menu: `<ul class="menu" style="width:14rem"><li><a class="menu-item" href="#">Admin</a></li><li><button class="menu-item">Use the dark theme</button></li><li><button class="menu-item">Sign out</button></li></ul>`,
  table: `<table class="table"><thead><tr><th>Name</th><th>Role</th><th>Actions</th></tr></thead><tbody>
    <tr><td data-label="Name">Erin Admin</td><td data-label="Role"><span class="badge">admin</span></td><td data-label="Actions"><div class="actions"><button class="button-small secondary">Reset password</button></div></td></tr>
    <tr><td data-label="Name">Sam Editor</td><td data-label="Role"><span class="badge">editor</span></td><td data-label="Actions"><div class="actions"><button class="button-small danger">Delete</button></div></td></tr></tbody></table>`,
  dialog: `<dialog class="dialog" open style="position:static"><div class="dialog-body"><h2 class="dialog-title">Delete this photo?</h2><div>It disappears from the gallery at once. This cannot be undone.</div>
    <div class="dialog-actions"><button class="secondary">Cancel</button><button class="danger">Delete photo</button></div></div></dialog>`,
};

const PAGE_STYLE = `body{display:block;min-height:0;padding:24px}
.specimen-swatches{display:grid;grid-template-columns:repeat(auto-fill,minmax(11rem,1fr));gap:12px}
.swatch{display:flex;align-items:center;gap:8px;font-size:13px}.swatch span{width:32px;height:32px;border-radius:6px;border:1px solid var(--color-line-strong)}`;

const browser = await chromium.launch({
  executablePath: fs.existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined,
  args: ["--headless", "--no-sandbox", "--disable-gpu"],
});
fs.mkdirSync(outputDirectory, { recursive: true });
for (const theme of ["light", "dark"]) {
  const page = await browser.newPage({ viewport: { width: 760, height: 600 }, deviceScaleFactor: 1 });
  for (const [name, markup] of Object.entries(SPECIMENS)) {
    await page.setContent(`<!doctype html><html data-theme="${theme}"><head><style>${styles}${PAGE_STYLE}</style></head><body><div id="specimen" style="display:inline-block;min-width:min(100%,40rem);padding:16px">${markup}</div></body></html>`);
    await page.locator("#specimen").screenshot({ path: path.join(outputDirectory, `${name}-${theme}.png`) });
  }
  await page.close();
}
await browser.close();
console.log(`Saved ${Object.keys(SPECIMENS).length * 2} screenshots in ${path.relative(root, outputDirectory)}/`);
