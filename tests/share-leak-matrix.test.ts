import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SHARE_GRANT_COOKIE } from "@/src/shares/share.types";
import {
  admittedBrowser,
  browserWithGrant,
  createShareWorld,
  type FixturePhoto,
  type FixturePhotoName,
  type FixtureShare,
  isJpeg,
  isZip,
  keyOneCharacterOff,
  newBrowser,
  readPrivateMetadata,
  readZipEntries,
  type ShareName,
  type ShareWorld,
  updateShare,
} from "./helpers/share-fixtures";
import type { TestClient } from "./helpers/test-client";

// The share leak matrix (issue 14; SECURITY.md 13, 43, 44, 56). Each row is a visitor's state
// (a browser and the key it uses) against one kind of path; each row checks every URL of that kind
// for its status and for what must not leave the server:
//   - no 64-byte slice of any variant or original of a photo outside the grant (every photo, when
//     the state is refused),
//   - no id or storage key of such a photo in HTML or JSON,
//   - no coordinate (3 decimals) in HTML or JSON, and no GPS in any JPEG or ZIP entry, for a link
//     that hides location; never a serial number or owner field in a JPEG,
//   - share bytes are `private`, never `immutable`; the ZIP's Content-Length is exact.
// A failing row lists every URL that went wrong, with why.

let world: ShareWorld;

interface StateContext {
  share: FixtureShare;
  key: string;
  browser: TestClient;
  /** The gate lets this browser in. */
  granted: boolean;
  /** A browser that may be admitted by the share page (no password, views left, no grant yet). */
  admissible?: boolean;
}

type BrowserKind = "admitted" | "new" | "wrong password" | "other link's grant" | "tampered grant";

/** A visitor's state: which share, which browser, which key, and whether the gate lets it in. One line each. */
interface StateRow {
  state: string;
  share: ShareName;
  browser: BrowserKind;
  granted: boolean;
  admissible?: boolean;
  keyOff?: boolean;
  /** Brought into its state after the browser was admitted. */
  after?: "expire" | "revoke" | "change password" | "use up";
}

const STATES: StateRow[] = [
  { state: "valid (no password)", share: "open", browser: "admitted", granted: true },
  { state: "valid (password entered)", share: "locked", browser: "admitted", granted: true },
  { state: "valid (originals, no ZIP)", share: "originals", browser: "admitted", granted: true },
  { state: "valid (location shown)", share: "located", browser: "admitted", granted: true },
  { state: "valid (admitted before the view limit was reached)", share: "limited", browser: "admitted", granted: true, after: "use up" },
  { state: "not admitted yet (no password, views left)", share: "open", browser: "new", granted: false, admissible: true },
  { state: "wrong password", share: "lockedRefused", browser: "wrong password", granted: false },
  { state: "no password yet", share: "lockedRefused", browser: "new", granted: false },
  { state: "expired", share: "expired", browser: "admitted", granted: false, after: "expire" },
  { state: "view limit reached (new browser)", share: "limited", browser: "new", granted: false },
  { state: "revoked", share: "revoked", browser: "admitted", granted: false, after: "revoke" },
  { state: "password changed since entered", share: "repassworded", browser: "admitted", granted: false, after: "change password" },
  // On a password link: on a link without one, a bad grant only means "not admitted yet".
  { state: "another link's grant", share: "lockedRefused", browser: "other link's grant", granted: false },
  { state: "tampered grant", share: "lockedRefused", browser: "tampered grant", granted: false },
  { state: "key one character off", share: "open", browser: "admitted", granted: false, keyOff: true },
];

interface Probe {
  label: string;
  path: string;
  method?: string;
  json?: unknown;
  expected: number[];
}

const OK = [200];
const REFUSED = [401];

function sharedPhotos(context: StateContext): FixturePhoto[] {
  return context.share.photos.map((name) => world.photos[name]);
}

function outsidePhotos(context: StateContext): FixturePhoto[] {
  return Object.values(world.photos).filter((photo) => !context.share.photos.includes(photo.name));
}

function picksAllowed(context: StateContext): boolean {
  return context.share.row.allow_picks === 1;
}

/** The status a granted browser gets where a right may be missing: `right` → 200, otherwise 403 (404 also accepted where noted). */
function when(context: StateContext, right: boolean, granted: number[] = OK, missing: number[] = [403]): number[] {
  if (!context.granted) return REFUSED;
  return right ? granted : missing;
}

/**
 * A page answers every browser without a grant 401: one the link may still admit gets the "View
 * photos" form, since only its POST admits and a GET (a preview bot's) counts nothing (SECURITY.md 59).
 */
function pageExpected(context: StateContext, granted: number[] = OK): number[] {
  return context.granted ? granted : REFUSED;
}

/** Every kind of path under a share, and the public gallery's, one line each. */
const PATHS: Array<{ path: string; probes: (context: StateContext) => Probe[] }> = [
  {
    path: "the share page",
    probes: (c) => [{ label: "page", path: `/s/${c.key}`, expected: pageExpected(c) }],
  },
  {
    path: "a photo page",
    probes: (c) => sharedPhotos(c).map((photo) => ({ label: `${photo.name}'s page`, path: `/s/${c.key}/p/${photo.id}`, expected: pageExpected(c) })),
  },
  {
    path: "a photo page outside the share",
    probes: (c) => outsidePhotos(c).map((photo) => ({ label: `${photo.name}'s page`, path: `/s/${c.key}/p/${photo.id}`, expected: pageExpected(c, [404]) })),
  },
  {
    path: "every variant URL",
    probes: (c) =>
      sharedPhotos(c).flatMap((photo) =>
        photo.variants.map((variant) => ({ label: `${photo.name} ${variant.format}-${variant.width}`, path: `/s/${c.key}/media/${variant.storageKey}`, expected: c.granted ? OK : REFUSED })),
      ),
  },
  {
    path: "variant URLs of photos outside the share",
    probes: (c) =>
      outsidePhotos(c).flatMap((photo) =>
        photo.variants.map((variant) => ({ label: `${photo.name} ${variant.format}-${variant.width}`, path: `/s/${c.key}/media/${variant.storageKey}`, expected: c.granted ? [404] : REFUSED })),
      ),
  },
  {
    path: "an original's storage key as a variant URL",
    probes: (c) => sharedPhotos(c).map((photo) => ({ label: `${photo.name}'s original key`, path: `/s/${c.key}/media/${photo.storageKeys[0]}`, expected: c.granted ? [404] : REFUSED })),
  },
  {
    path: "the download (copy or original, per the link)",
    probes: (c) =>
      sharedPhotos(c).map((photo) => ({ label: `${photo.name} download`, path: `/s/${c.key}/p/${photo.id}/download`, expected: when(c, c.share.row.download !== "none") })),
  },
  {
    path: "the download of a photo outside the share",
    probes: (c) => outsidePhotos(c).map((photo) => ({ label: `${photo.name} download`, path: `/s/${c.key}/p/${photo.id}/download`, expected: c.granted ? [403, 404] : REFUSED })),
  },
  {
    path: "the ZIP",
    probes: (c) => [{ label: "download.zip", path: `/s/${c.key}/download.zip`, expected: when(c, c.share.row.download !== "none" && c.share.row.allow_zip === 1) }],
  },
  {
    path: "the visitor API (list and details)",
    probes: (c) => [
      { label: "photos list", path: `/s/${c.key}/api/photos`, expected: c.granted ? OK : REFUSED },
      ...sharedPhotos(c).map((photo) => ({ label: `${photo.name}'s detail`, path: `/s/${c.key}/api/photos/${photo.id}`, expected: c.granted ? OK : REFUSED })),
      ...outsidePhotos(c).map((photo) => ({ label: `${photo.name}'s detail (outside)`, path: `/s/${c.key}/api/photos/${photo.id}`, expected: c.granted ? [404] : REFUSED })),
    ],
  },
  {
    path: "the proofing API",
    probes: (c) => {
      const [first] = sharedPhotos(c);
      const [outside] = outsidePhotos(c);
      const picks = picksAllowed(c);
      return [
        { label: "register", path: `/s/${c.key}/api/visitor`, method: "POST", json: { name: "Matrix visitor" }, expected: when(c, picks, [200, 201], [403, 404]) },
        { label: "me", path: `/s/${c.key}/api/visitor`, expected: when(c, picks, OK, [403, 404]) },
        { label: "pick", path: `/s/${c.key}/api/feedback/${first.id}`, method: "PUT", json: { picked: true, comment: "matrix" }, expected: when(c, picks, [200, 204], [403, 404]) },
        { label: "pick outside", path: `/s/${c.key}/api/feedback/${outside.id}`, method: "PUT", json: { picked: true }, expected: when(c, picks, [404], [403, 404]) },
        { label: "send", path: `/s/${c.key}/api/selection`, method: "POST", json: {}, expected: when(c, picks, [200, 204], [403, 404]) },
      ];
    },
  },
];

interface Forbidden {
  photos: FixturePhoto[];
  /** Coordinates of these photos must not appear. */
  coordinatesOf: FixturePhoto[];
  hidesLocation: boolean;
}

function isText(contentType: string): boolean {
  return /text\/|json|javascript|xml/.test(contentType);
}

/** Everything wrong with one answer: its status, its headers, and anything that leaked. */
async function inspect(label: string, probe: Probe, response: Response, forbidden: Forbidden): Promise<string[]> {
  const problems: string[] = [];
  const where = `${label}: ${probe.method ?? "GET"} ${probe.path}`;
  if (!probe.expected.includes(response.status)) problems.push(`${where} answered ${response.status}, expected ${probe.expected.join(" or ")}`);
  const body = Buffer.from(await response.arrayBuffer());
  const contentType = response.headers.get("content-type") ?? "";
  for (const photo of forbidden.photos) {
    for (const file of photo.files) {
      if (body.includes(file.slice)) problems.push(`${where} contains bytes of ${file.label} (outside the grant)`);
    }
  }
  if (isText(contentType) || response.status >= 300) {
    const text = body.toString("utf8");
    // An id or key the request itself named may be echoed back (a 404 page's URL); anything else may not appear.
    for (const photo of forbidden.photos) {
      if (!probe.path.includes(photo.id) && text.includes(photo.id)) problems.push(`${where} names ${photo.name}'s id (outside the grant)`);
      for (const storageKey of photo.storageKeys) if (!probe.path.includes(storageKey) && text.includes(storageKey)) problems.push(`${where} names the storage key ${storageKey} (outside the grant)`);
    }
    for (const photo of forbidden.coordinatesOf) {
      for (const coordinate of photo.coordinateStrings) if (text.includes(coordinate)) problems.push(`${where} shows ${photo.name}'s coordinate ${coordinate}`);
    }
  }
  if (response.status === 200 && (probe.method ?? "GET") === "GET" && /^\/s\//.test(probe.path) && !/^text\/html/.test(contentType)) {
    const cacheControl = response.headers.get("cache-control") ?? "";
    if (!/private|no-store/.test(cacheControl) || /immutable|public/.test(cacheControl)) problems.push(`${where} has Cache-Control "${cacheControl}" (must be private, never immutable or public)`);
  }
  const jpegs: Array<{ name: string; bytes: Buffer }> = [];
  if (isJpeg(body)) jpegs.push({ name: "the answer", bytes: body });
  if (isZip(body) && response.status === 200) {
    const length = response.headers.get("content-length");
    if (length !== String(body.length)) problems.push(`${where} has Content-Length ${length} but sent ${body.length} bytes`);
    try {
      for (const entry of readZipEntries(body)) {
        for (const photo of Object.values(world.photos)) {
          if (entry.name.includes(photo.file.split("/").at(-1)?.replace(/\.[^.]+$/, "") as string)) problems.push(`${where} entry "${entry.name}" carries the original file name`);
        }
        if (isJpeg(entry.bytes)) jpegs.push({ name: `ZIP entry ${entry.name}`, bytes: entry.bytes });
      }
    } catch (error) {
      problems.push(`${where} is not a readable ZIP: ${(error as Error).message}`);
    }
  }
  for (const jpeg of jpegs) {
    const metadata = await readPrivateMetadata(jpeg.bytes);
    if (forbidden.hidesLocation && metadata.gps) problems.push(`${where}: ${jpeg.name} carries GPS coordinates`);
    if (metadata.privateTags.length > 0) problems.push(`${where}: ${jpeg.name} carries ${metadata.privateTags.join(", ")}`);
  }
  return problems;
}

async function runProbes(label: string, browser: TestClient, probes: Probe[], forbidden: Forbidden): Promise<string[]> {
  const problems: string[] = [];
  for (const probe of probes) {
    const response = await browser.request(probe.path, { method: probe.method, body: probe.json === undefined ? undefined : { json: probe.json } });
    problems.push(...(await inspect(label, probe, response, forbidden)));
  }
  return problems;
}

const contexts = new Map<string, StateContext>();

async function browserFor(row: StateRow, share: FixtureShare): Promise<TestClient> {
  switch (row.browser) {
    case "admitted":
      return admittedBrowser(world.db, share);
    case "new":
      return newBrowser();
    case "wrong password": {
      const browser = newBrowser();
      const response = await browser.request(`/s/${share.key}/api/password`, { body: { json: { password: "not the password" } } });
      await response.arrayBuffer();
      return browser;
    }
    case "other link's grant":
      return browserWithGrant(world.shares.other.row.id, world.shares.other.row.grant_version);
    case "tampered grant": {
      const browser = await admittedBrowser(world.db, share);
      const value = browser.cookies.get(SHARE_GRANT_COOKIE) as string;
      browser.cookies.set(SHARE_GRANT_COOKIE, `${value.slice(0, -1)}${value.endsWith("A") ? "B" : "A"}`);
      return browser;
    }
  }
}

beforeAll(async () => {
  world = await createShareWorld();
  // The "new browser" of the limited link comes after its one view was taken.
  const ordered = [...STATES].sort((left, right) => Number(left.browser === "new") - Number(right.browser === "new"));
  for (const row of ordered) {
    const share = world.shares[row.share];
    const browser = await browserFor(row, share);
    contexts.set(row.state, { share, key: row.keyOff ? keyOneCharacterOff(share.key) : share.key, browser, granted: row.granted, admissible: row.admissible });
  }
  const past = new Date(Date.now() - 60_000).toISOString();
  await updateShare(world.db, world.shares.expired, { expires_at: past });
  await updateShare(world.db, world.shares.revoked, { revoked_at: past });
  await updateShare(world.db, world.shares.repassworded, { grant_version: world.shares.repassworded.row.grant_version + 1 });
  for (const share of Object.values(world.shares)) Object.assign(share.row, (await world.db.selectFrom("shares").selectAll().where("id", "=", share.row.id).executeTakeFirstOrThrow()));
}, 600_000);

afterAll(async () => {
  await world?.close();
});

function forbiddenFor(context: StateContext): Forbidden {
  const all = Object.values(world.photos);
  if (!context.granted) return { photos: all, coordinatesOf: all, hidesLocation: true };
  const hidesLocation = context.share.row.show_location !== 1;
  return { photos: outsidePhotos(context), coordinatesOf: hidesLocation ? all : outsidePhotos(context), hidesLocation };
}

describe.each(STATES)("share leak matrix: $state", (row) => {
  it.each(PATHS)("$path", async ({ path, probes }) => {
    const context = contexts.get(row.state) as StateContext;
    const problems = await runProbes(`${row.state} × ${path}`, context.browser, probes(context), forbiddenFor(context));
    expect(problems, problems.join("\n")).toEqual([]);
  });
});

describe("refused visitors write nothing", () => {
  it("leaves no proofing visitor, pick or comment behind for any refused state", async () => {
    const refusedShares = [...new Set(STATES.filter((row) => !row.granted).map((row) => world.shares[row.share].row.id))];
    const grantedShares = new Set(STATES.filter((row) => row.granted).map((row) => world.shares[row.share].row.id));
    const onlyRefused = refusedShares.filter((id) => !grantedShares.has(id));
    const visitors = await world.db.selectFrom("share_visitors").select(["share_id", "name"]).where("share_id", "in", onlyRefused).execute();
    const feedback = await world.db.selectFrom("share_feedback").select(["share_id", "photo_id"]).where("share_id", "in", onlyRefused).execute();
    expect({ visitors, feedback }).toEqual({ visitors: [], feedback: [] });
  });

  it("answers a wrong password with 401 and no grant", async () => {
    const browser = newBrowser();
    const response = await browser.request(`/s/${world.shares.lockedRefused.key}/api/password`, { body: { json: { password: "wrong" } } });
    expect(response.status).toBe(401);
    expect(browser.cookies.has(SHARE_GRANT_COOKIE)).toBe(false);
    expect((await browser.request(`/s/${world.shares.lockedRefused.key}/api/photos`)).status).toBe(401);
  });
});

// ---------------------------------------------------------------------------------------------
// The public gallery: a share never makes a photo public (SECURITY.md 43).

const PUBLIC_CLIENTS: Array<{ client: string; browser: () => TestClient }> = [
  { client: "an anonymous visitor", browser: () => newBrowser() },
  { client: "a visitor holding a valid share grant", browser: () => contexts.get("valid (no password)")?.browser as TestClient },
];

const privatePhotos = (): FixturePhoto[] => Object.values(world.photos).filter((photo) => photo.visibility !== "public");

const PUBLIC_PATHS: Array<{ path: string; probes: () => Probe[] }> = [
  { path: "the gallery /", probes: () => [{ label: "/", path: "/", expected: OK }] },
  { path: "/albums", probes: () => [{ label: "/albums", path: "/albums", expected: OK }] },
  { path: "/tags", probes: () => [{ label: "/tags", path: "/tags", expected: OK }] },
  { path: "/p/[id] of private photos", probes: () => privatePhotos().map((photo) => ({ label: photo.name, path: `/p/${photo.id}`, expected: [404] })) },
  { path: "/p/[id] of the public photo", probes: () => [{ label: "published", path: `/p/${world.photos.published.id}`, expected: OK }] },
  {
    path: "/media URLs of private photos",
    probes: () => privatePhotos().flatMap((photo) => photo.variants.map((variant) => ({ label: `${photo.name} ${variant.format}-${variant.width}`, path: variant.url, expected: [404] }))),
  },
  { path: "GET /api/photos", probes: () => [{ label: "list", path: "/api/photos", expected: REFUSED }, ...privatePhotos().map((photo) => ({ label: photo.name, path: `/api/photos/${photo.id}`, expected: REFUSED }))] },
  { path: "downloads of private photos", probes: () => privatePhotos().map((photo) => ({ label: photo.name, path: `/p/${photo.id}/download`, expected: [403, 404] })) },
  // Issue 15: every list that finds or publishes photos (shares are never listed; a grant widens nothing).
  {
    path: "search, its facets and suggestions",
    probes: () => [
      { label: "/search", path: "/search", expected: OK },
      { label: "/api/search", path: "/api/search", expected: OK },
      { label: "/api/search/facets", path: "/api/search/facets", expected: OK },
      ...["a", "e", "i", "o"].map((prefix) => ({ label: `suggest ${prefix}`, path: `/api/search/suggest?q=${prefix}`, expected: OK })),
    ],
  },
  {
    path: "browse by camera, lens and year",
    probes: () => ["/cameras", "/lenses", "/years"].map((path) => ({ label: path, path, expected: OK })),
  },
  {
    path: "feeds, the sitemap and robots.txt",
    probes: () => ["/feed.xml", "/feed.json", "/sitemap.xml", "/robots.txt"].map((path) => ({ label: path, path, expected: OK })),
  },
  {
    path: "oEmbed of private photos and of a share link",
    probes: () => [
      ...privatePhotos().map((photo) => ({ label: photo.name, path: `/oembed?url=${encodeURIComponent(new URL(`/p/${photo.id}`, newBrowser().baseUrl).toString())}`, expected: [404] })),
      // The positive control: the same address form answers for the public photo.
      { label: "published", path: `/oembed?url=${encodeURIComponent(new URL(`/p/${world.photos.published.id}`, newBrowser().baseUrl).toString())}`, expected: OK },
      { label: "the share link", path: `/oembed?url=${encodeURIComponent(new URL(`/s/${world.shares.open.key}`, newBrowser().baseUrl).toString())}`, expected: [404] },
    ],
  },
];

describe.each(PUBLIC_CLIENTS)("public gallery for $client", ({ client, browser }) => {
  it.each(PUBLIC_PATHS)("$path", async ({ path, probes }) => {
    const forbidden = { photos: privatePhotos(), coordinatesOf: Object.values(world.photos), hidesLocation: true };
    const problems = await runProbes(`${client} × ${path}`, browser(), probes(), forbidden);
    expect(problems, problems.join("\n")).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// What a granted visitor gets, positively: the policy is applied, not only nothing refused.

describe("what a granted visitor receives", () => {
  const names = (share: FixtureShare): FixturePhotoName[] => share.photos;

  it("a link that shows location gives the coordinate in the API; one that hides it does not", async () => {
    const gpsPhoto = world.photos.gps;
    const located = contexts.get("valid (location shown)") as StateContext;
    const shown = await (await located.browser.request(`/s/${located.key}/api/photos/${gpsPhoto.id}`)).text();
    expect(gpsPhoto.coordinateStrings.some((coordinate) => shown.includes(coordinate)), shown).toBe(true);
    const open = contexts.get("valid (no password)") as StateContext;
    const hidden = await (await open.browser.request(`/s/${open.key}/api/photos/${gpsPhoto.id}`)).text();
    expect(gpsPhoto.coordinateStrings.filter((coordinate) => hidden.includes(coordinate))).toEqual([]);
  });

  it("the visitor API lists exactly the share's photos, in its order", async () => {
    for (const state of ["valid (no password)", "valid (password entered)"]) {
      const context = contexts.get(state) as StateContext;
      const text = await (await context.browser.request(`/s/${context.key}/api/photos`)).text();
      const positions = names(context.share).map((name) => text.indexOf(world.photos[name].id));
      expect(positions.every((position) => position >= 0), text).toBe(true);
      expect([...positions].sort((left, right) => left - right)).toEqual(positions);
    }
  });

  it("the ZIP holds one entry per shared photo under neutral names, with no GPS for a link that hides it", async () => {
    const context = contexts.get("valid (no password)") as StateContext;
    const response = await context.browser.request(`/s/${context.key}/download.zip`);
    expect(response.status).toBe(200);
    const body = Buffer.from(await response.arrayBuffer());
    expect(response.headers.get("content-length")).toBe(String(body.length));
    const entries = readZipEntries(body);
    expect(entries).toHaveLength(context.share.photos.length);
    for (const entry of entries) expect((await readPrivateMetadata(entry.bytes)).gps, entry.name).toBe(false);
  });

  it("the original right gives the original's pixels but not its GPS or serial number", async () => {
    const context = contexts.get("valid (originals, no ZIP)") as StateContext;
    const photo = world.photos.gpsSerial;
    const response = await context.browser.request(`/s/${context.key}/p/${photo.id}/download`);
    expect(response.status).toBe(200);
    const bytes = Buffer.from(await response.arrayBuffer());
    const original = photo.files[0].bytes;
    expect(bytes.subarray(bytes.length - 20_000).equals(original.subarray(original.length - 20_000))).toBe(true);
    expect(await readPrivateMetadata(bytes)).toEqual({ gps: false, privateTags: [] });
  });
});

// ---------------------------------------------------------------------------------------------
// Keys, and proofing visitors kept apart.

describe("share keys", () => {
  it("carry at least 128 bits", () => {
    for (const share of Object.values(world.shares)) {
      expect(Buffer.from(share.key, "base64url").length * 8, share.key).toBeGreaterThanOrEqual(128);
      expect(Buffer.from(share.key, "base64url").toString("base64url")).toBe(share.key);
    }
  });

  it("made by the owner API carry at least 128 bits, all different, and a key one character off opens nothing", async () => {
    const keys = new Set<string>();
    for (let index = 0; index < 5; index += 1) {
      const response = await world.owner.client.request("/api/shares", { body: { json: { title: `Key ${index}`, photoIds: [world.photos.plain.id] } } });
      expect(response.status, (await response.clone().text()).slice(0, 300)).toBe(201);
      const { share } = (await response.json()) as { share: { url: string } };
      const key = /\/s\/([^/?#]+)$/.exec(share.url)?.[1] ?? "";
      expect(Buffer.from(key, "base64url").length * 8, share.url).toBeGreaterThanOrEqual(128);
      keys.add(key);
      const visitor = newBrowser();
      expect((await visitor.request(`/s/${keyOneCharacterOff(key)}`)).status).toBe(401);
    }
    expect(keys.size).toBe(5);
  });
});

describe("proofing visitors", () => {
  it("never mix picks, and cannot read each other's", async () => {
    const share = world.shares.located;
    const alice = await admittedBrowser(world.db, share);
    const bob = await admittedBrowser(world.db, share);
    const aliceNote = `alice-${crypto.randomUUID()}`;
    const bobNote = `bob-${crypto.randomUUID()}`;
    const base = `/s/${share.key}/api`;
    for (const [browser, name] of [[alice, "Alice"], [bob, "Bob"]] as const) {
      const response = await browser.request(`${base}/visitor`, { body: { json: { name } } });
      expect([200, 201], (await response.clone().text()).slice(0, 300)).toContain(response.status);
    }
    const [alicePhoto, bobPhoto] = [world.photos.gpsSerial, world.photos.plain];
    // At the same moment, so a shared cursor or cache would show.
    const answers = await Promise.all([
      alice.request(`${base}/feedback/${alicePhoto.id}`, { method: "PUT", body: { json: { picked: true, comment: aliceNote } } }),
      bob.request(`${base}/feedback/${bobPhoto.id}`, { method: "PUT", body: { json: { picked: true, comment: bobNote } } }),
    ]);
    for (const answer of answers) expect([200, 204], (await answer.clone().text()).slice(0, 300)).toContain(answer.status);

    const aliceView = await (await alice.request(`${base}/visitor`)).text();
    const bobView = await (await bob.request(`${base}/visitor`)).text();
    expect(aliceView).toContain(aliceNote);
    expect(aliceView).not.toContain(bobNote);
    expect(bobView).toContain(bobNote);
    expect(bobView).not.toContain(aliceNote);
    for (const [browser, other] of [[alice, bobNote], [bob, aliceNote]] as const) {
      for (const path of [`${base}/photos`, `${base}/photos/${alicePhoto.id}`, `${base}/photos/${bobPhoto.id}`, `/s/${share.key}`, `/s/${share.key}/p/${alicePhoto.id}`, `/s/${share.key}/p/${bobPhoto.id}`]) {
        expect(await (await browser.request(path)).text(), path).not.toContain(other);
      }
    }

    // In the database: each visitor's row holds only their own pick.
    const rows = await world.db
      .selectFrom("share_feedback")
      .innerJoin("share_visitors", "share_visitors.id", "share_feedback.visitor_id")
      .select(["share_visitors.name", "share_feedback.photo_id", "share_feedback.comment", "share_feedback.is_picked"])
      .where("share_feedback.share_id", "=", share.row.id)
      .where("share_visitors.name", "in", ["Alice", "Bob"])
      .orderBy("share_visitors.name")
      .execute();
    expect(rows).toEqual([
      { name: "Alice", photo_id: alicePhoto.id, comment: aliceNote, is_picked: 1 },
      { name: "Bob", photo_id: bobPhoto.id, comment: bobNote, is_picked: 1 },
    ]);

    // The owner sees each visitor with their own picks only.
    const selections = await world.owner.client.request(`/api/shares/${share.row.id}/selections`);
    expect(selections.status).toBe(200);
    const { visitors } = (await selections.json()) as { visitors: Array<{ name: string; picks: Array<{ photoId: string; comment: string | null }> }> };
    const picksOf = (name: string) => visitors.filter((visitor) => visitor.name === name).flatMap((visitor) => visitor.picks.map((pick) => [pick.photoId, pick.comment]));
    expect(picksOf("Alice")).toEqual([[alicePhoto.id, aliceNote]]);
    expect(picksOf("Bob")).toEqual([[bobPhoto.id, bobNote]]);

    // The owner's selections are the owner's: a visitor, granted or not, gets 401.
    for (const path of [`/api/shares/${share.row.id}/selections`, `/api/shares/${share.row.id}/selections.csv`, `/api/shares/${share.row.id}`]) {
      expect((await alice.request(path)).status, path).toBe(401);
    }

    // Alice's visitor cookie on another link (her grant for it too) is not Alice there.
    const open = world.shares.open;
    const elsewhere = await admittedBrowser(world.db, open);
    for (const [name, value] of alice.cookies) if (name !== SHARE_GRANT_COOKIE) elsewhere.cookies.set(name, value);
    const there = await elsewhere.request(`/s/${open.key}/api/visitor`);
    expect(await there.text()).not.toContain(aliceNote);
  });
});
