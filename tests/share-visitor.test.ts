import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import type { Database, NewShareRow } from "@/src/db/database";
import { hashPassword } from "@/src/users/password";
import { uploadCorpusFile, waitForProcessing, type PhotoDetailBody } from "./helpers/photos";
import { signedInAs, TestClient, type TestUser } from "./helpers/test-client";
import { openTestDatabase } from "./helpers/test-database";

// The visitor's side of share links (SECURITY.md 43, 44, 13, 59 and 60): admission and the grant
// cookie (only a person's POST counts a view, never a bot's GET), the view limit, the password and
// the rate limits that slow its guessers rather than the link, 401 everywhere once a link closes,
// 404 for a photo outside the link, and the link's metadata policy on the JSON and the pages.

const SHARE_PASSWORD = "correct horse battery";

let db: Kysely<Database>;
let owner: TestUser;
let inShare: PhotoDetailBody[] = [];
let outside: PhotoDetailBody;

function newKey(): string {
  return randomBytes(18).toString("base64url");
}

async function makeShare(fields: Partial<NewShareRow> = {}, photoIds = inShare.map((photo) => photo.id)): Promise<{ id: string; key: string }> {
  const now = new Date().toISOString();
  const id = crypto.randomUUID();
  const key = fields.key ?? newKey();
  await db
    .insertInto("shares")
    .values({ id, key, owner_id: owner.id, title: "Ana & Rui, 14 June", message: "Pick your favourites for the album.", created_at: now, updated_at: now, ...fields })
    .execute();
  if (photoIds.length > 0) await db.insertInto("share_photos").values(photoIds.map((photoId, position) => ({ share_id: id, photo_id: photoId, position }))).execute();
  return { id, key };
}

/** The page's "View photos" form: the one way in to a link without a password (SECURITY.md 59). */
function enterPath(key: string, next = `/s/${key}`): string {
  return `/s/${key}/api/enter?next=${encodeURIComponent(next)}`;
}

/** A fresh browser admitted to a link without a password, as a person is: the page, then its form's POST. */
async function admittedVisitor(key: string): Promise<TestClient> {
  const visitor = new TestClient();
  const page = await visitor.request(`/s/${key}`);
  expect(page.status).toBe(401);
  expect(await page.text()).toContain(`action="${enterPath(key).replace(/&/g, "&#38;")}"`);
  const enter = await visitor.request(enterPath(key), { method: "POST" });
  expect(enter.status, await enter.clone().text()).toBe(303);
  expect(visitor.cookies.get("cs_share_grant")).toBeTruthy();
  return visitor;
}

/**
 * What a link-preview bot or a mail scanner does with a link (Slackbot, Outlook Safe Links,
 * Gmail's proxy): GET and HEAD with no cookies, following every redirect, reading the HTML.
 */
async function fetchLikeABot(path: string, userAgent: string, method: "GET" | "HEAD" = "GET"): Promise<{ status: number; text: string }> {
  const address = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
  const response = await fetch(new URL(path, inject("baseUrl")), { method, redirect: "follow", headers: { "User-Agent": userAgent, "X-Forwarded-For": address, Accept: "text/html,*/*" } });
  return { status: response.status, text: await response.text() };
}

async function viewsOf(shareId: string): Promise<{ views: number; visits: number }> {
  const share = await db.selectFrom("shares").select("view_count").where("id", "=", shareId).executeTakeFirstOrThrow();
  const visits = await db.selectFrom("share_access_log").select("event").where("share_id", "=", shareId).where("event", "=", "visit").execute();
  return { views: Number(share.view_count), visits: visits.length };
}

async function statusOf(client: TestClient, path: string): Promise<number> {
  const response = await client.request(path);
  await response.arrayBuffer();
  return response.status;
}

beforeAll(async () => {
  db = openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
  const signedIn = await signedInAs("editor");
  owner = signedIn.user;
  const files = ["exif-samples/jpg/gps/DSCN0010.jpg", "exif-samples/jpg/gps/DSCN0012.jpg", "exif-samples/jpg/gps/DSCN0021.jpg"];
  const uploaded = [];
  for (const file of files) uploaded.push(await uploadCorpusFile(signedIn.client, file));
  const ready = [];
  for (const photo of uploaded) ready.push(await waitForProcessing(signedIn.client, photo.id));
  for (const photo of ready) expect(photo.status).toBe("ready");
  inShare = ready.slice(0, 2);
  outside = ready[2];
}, 180_000);

afterAll(async () => {
  await db?.destroy();
});

describe("coming in to a link without a password", () => {
  it("answers the page with its 'View photos' form (401, sent by its script); the form's POST admits with a Path=/s/<key> HttpOnly cookie, then the gallery, noindex", async () => {
    const { id, key } = await makeShare();
    const visitor = new TestClient();
    const page = await visitor.request(`/s/${key}`);
    expect(page.status).toBe(401);
    const form = await page.text();
    expect(form).toContain("Photos shared with you");
    expect(form).toMatch(new RegExp(`<form id="share-enter" method="post" action="/s/${key}/api/enter\\?next=%2Fs%2F${key}"`));
    expect(form).toContain('form.submit()');
    expect(form).not.toContain("DSCN");
    expect(form).not.toContain("/media/");
    expect(visitor.cookies.has("cs_share_grant")).toBe(false);
    expect(await viewsOf(id)).toEqual({ views: 0, visits: 0 });

    const enter = await visitor.request(enterPath(key), { method: "POST" });
    expect(enter.status).toBe(303);
    expect(enter.headers.get("location")).toBe(`/s/${key}?entered=1`);
    const cookie = enter.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(new RegExp(`^cs_share_grant=[^;]+; Path=/s/${key}; Max-Age=\\d+; HttpOnly; SameSite=Lax`));

    // Back with the mark: the address is cleaned; then the gallery.
    const marked = await visitor.request(`/s/${key}?entered=1`);
    expect(marked.status).toBe(307);
    const gallery = await visitor.request(`/s/${key}`);
    expect(gallery.status).toBe(200);
    expect(gallery.headers.get("x-robots-tag")).toContain("noindex");
    const html = await gallery.text();
    expect(html).toContain("Ana &amp; Rui, 14 June");
    expect(html).toContain("2 photos");
    expect(html).toMatch(/<meta name="robots" content="noindex, nofollow/);
    expect(html).toContain(`/s/${key}/media/variants/`);
    expect(html).not.toMatch(/["\s]\/media\//);
    expect(html).not.toContain(owner.email);
    expect(html).not.toContain("/admin");
    expect(html).not.toContain("DSCN");

    const share = await db.selectFrom("shares").select(["view_count", "last_visited_at"]).where("id", "=", id).executeTakeFirstOrThrow();
    expect(Number(share.view_count)).toBe(1);
    expect(share.last_visited_at).not.toBeNull();
    const visits = await db.selectFrom("share_access_log").select(["event"]).where("share_id", "=", id).execute();
    expect(visits.map((row) => row.event)).toEqual(["visit"]);
  });

  it("SECURITY 59: preview bots and mail scanners (no cookies, redirects followed) use up no views; a person still gets in, counted once", async () => {
    const { id, key } = await makeShare({ max_views: 2 });
    const bots = [
      "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 Edg/120.0 (Outlook Safe Links)",
      "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
      "WhatsApp/2.23.20.0",
    ];
    for (const bot of bots) {
      for (const path of [`/s/${key}`, `/s/${key}/p/${inShare[0].id}`, `/s/${key}?entered=1`]) {
        const answer = await fetchLikeABot(path, bot);
        expect(answer.status, `${bot} ${path}`).toBe(401);
        expect(answer.text).not.toContain("DSCN");
        expect(answer.text).not.toContain(`/s/${key}/media/`);
      }
      expect((await fetchLikeABot(`/s/${key}`, bot, "HEAD")).status).toBe(401);
      // The way in is a POST: a GET of it, or of the old address /s/<key>/enter, admits nobody.
      expect((await fetchLikeABot(enterPath(key), bot)).status).toBe(405);
      expect((await fetchLikeABot(`/s/${key}/enter?next=${encodeURIComponent(`/s/${key}`)}`, bot)).status).toBe(404);
    }
    expect(await viewsOf(id)).toEqual({ views: 0, visits: 0 });

    // The recipient opens it after all of that: admitted, and counted once however often they come back.
    const person = await admittedVisitor(key);
    expect(await statusOf(person, `/s/${key}?entered=1`)).toBe(307);
    for (let reload = 0; reload < 3; reload += 1) expect(await statusOf(person, `/s/${key}`)).toBe(200);
    expect(await statusOf(person, `/s/${key}/p/${inShare[1].id}`)).toBe(200);
    // Posting the form again (a second tab, the back button) admits nothing more.
    const again = await person.request(enterPath(key), { method: "POST" });
    expect(again.status).toBe(303);
    expect(again.headers.get("set-cookie")).toBeNull();
    expect(await viewsOf(id)).toEqual({ views: 1, visits: 1 });

    // A bot after the person: still nothing counted; the second view is left for a second person.
    await fetchLikeABot(`/s/${key}`, bots[0]);
    expect(await viewsOf(id)).toEqual({ views: 1, visits: 1 });
    await admittedVisitor(key);
    expect(await viewsOf(id)).toEqual({ views: 2, visits: 2 });
    const late = await fetchLikeABot(`/s/${key}`, bots[1]);
    expect(late.text).toContain("This link has been used up");
  });

  it("refuses the 'View photos' form posted from another site", async () => {
    const { id, key } = await makeShare();
    const response = await new TestClient().request(enterPath(key), { method: "POST", origin: "https://evil.example" });
    expect(response.status).toBe(403);
    expect(await viewsOf(id)).toEqual({ views: 0, visits: 0 });
  });

  it("tells a browser that keeps no cookies so, with a 401, instead of looping", async () => {
    const { key } = await makeShare();
    const response = await new TestClient().request(`/s/${key}?entered=1`);
    expect(response.status).toBe(401);
    expect(await response.text()).toContain("This page needs cookies");
  });

  it("never sends a visitor anywhere but under the link after the 'View photos' form", async () => {
    const { key } = await makeShare();
    for (const next of ["https://evil.example/", "//evil.example", "/admin", `/s/${newKey()}`, `/s/${key}x`, "/s/../admin"]) {
      const response = await new TestClient().request(enterPath(key, next), { method: "POST" });
      expect(response.status).toBe(303);
      expect(response.headers.get("location")).toMatch(new RegExp(`^/s/${key}(\\?|/|$)`));
    }
  });

  it("counts admissions atomically: concurrent browsers never exceed the view limit", async () => {
    const { id, key } = await makeShare({ max_views: 3 });
    const visitors = Array.from({ length: 12 }, () => new TestClient());
    const answers = await Promise.all(visitors.map((visitor) => visitor.request(`/s/${key}/api/enter`, { method: "POST" })));
    expect(answers.every((answer) => answer.status === 303)).toBe(true);
    const admitted = visitors.filter((visitor) => visitor.cookies.has("cs_share_grant"));
    expect(admitted).toHaveLength(3);
    const share = await db.selectFrom("shares").select("view_count").where("id", "=", id).executeTakeFirstOrThrow();
    expect(Number(share.view_count)).toBe(3);

    // Admitted browsers keep their access; a new one gets the used-up 401.
    expect(await statusOf(admitted[0], `/s/${key}`)).toBe(200);
    const late = await new TestClient().request(`/s/${key}`);
    expect(late.status).toBe(401);
    expect(await late.text()).toContain("This link has been used up");
  });
});

describe("a link with a password", () => {
  it("answers 401 with the password form until the password is right, never admitting a wrong one", async () => {
    const { id, key } = await makeShare({ password_hash: await hashPassword(SHARE_PASSWORD) });
    const visitor = new TestClient();
    const page = await visitor.request(`/s/${key}`);
    expect(page.status).toBe(401);
    const html = await page.text();
    expect(html).toContain("This link has a password");
    expect(html).toMatch(new RegExp(`<form[^>]*method="post"[^>]*action="/s/${key}/api/password"`));
    expect(html).not.toContain("DSCN");
    // Nothing else opens either.
    expect(await statusOf(visitor, `/s/${key}/api/photos`)).toBe(401);
    expect(await statusOf(visitor, `/s/${key}/p/${inShare[0].id}`)).toBe(401);
    expect((await visitor.request(enterPath(key), { method: "POST" })).status).toBe(303);
    expect(visitor.cookies.has("cs_share_grant")).toBe(false);

    const wrongJson = await visitor.request(`/s/${key}/api/password`, { body: { json: { password: "nope" } } });
    expect(wrongJson.status).toBe(401);
    const wrongForm = await visitor.request(`/s/${key}/api/password`, { body: { form: { password: "still nope" } } });
    expect(wrongForm.status).toBe(303);
    expect(wrongForm.headers.get("location")).toBe(`/s/${key}?password=wrong`);
    const back = await visitor.request(`/s/${key}?password=wrong`);
    expect(back.status).toBe(401);
    expect(await back.text()).toContain("That password is not right");
    expect(visitor.cookies.has("cs_share_grant")).toBe(false);
    const refused = await db.selectFrom("share_access_log").select("event").where("share_id", "=", id).where("event", "=", "password_refused").execute();
    expect(refused).toHaveLength(2);

    const right = await visitor.request(`/s/${key}/api/password`, { body: { form: { password: SHARE_PASSWORD, next: `/s/${key}/p/${inShare[1].id}` } } });
    expect(right.status).toBe(303);
    expect(right.headers.get("location")).toBe(`/s/${key}/p/${inShare[1].id}`);
    expect(right.headers.get("set-cookie")).toMatch(new RegExp(`Path=/s/${key};.*HttpOnly`));
    expect(await statusOf(visitor, `/s/${key}`)).toBe(200);

    const jsonVisitor = new TestClient();
    const json = await jsonVisitor.request(`/s/${key}/api/password`, { body: { json: { password: SHARE_PASSWORD } } });
    expect(json.status).toBe(204);
    expect(await statusOf(jsonVisitor, `/s/${key}/api/photos`)).toBe(200);
  });

  it("refuses a password posted from another site", async () => {
    const { key } = await makeShare({ password_hash: await hashPassword(SHARE_PASSWORD) });
    const response = await new TestClient().request(`/s/${key}/api/password`, { body: { json: { password: SHARE_PASSWORD } }, origin: "https://evil.example" });
    expect(response.status).toBe(403);
  });

  it("rate-limits tries per link and address: the sixth in five minutes is 429 with Retry-After", async () => {
    const { key } = await makeShare({ password_hash: await hashPassword(SHARE_PASSWORD) });
    const visitor = new TestClient();
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const wrong = await visitor.request(`/s/${key}/api/password`, { body: { json: { password: `wrong ${attempt}` } } });
      expect(wrong.status).toBe(401);
    }
    const limited = await visitor.request(`/s/${key}/api/password`, { body: { json: { password: SHARE_PASSWORD } } });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await limited.json()) as { error: { message: string } }).error.message).toMatch(/Too many tries/);
    const limitedForm = await visitor.request(`/s/${key}/api/password`, { body: { form: { password: SHARE_PASSWORD } } });
    expect(limitedForm.headers.get("location")).toMatch(new RegExp(`^/s/${key}\\?password=limited&retry=\\d+$`));
    // Another address is not held back by this one's tries.
    expect((await new TestClient().request(`/s/${key}/api/password`, { body: { json: { password: SHARE_PASSWORD } } })).status).toBe(204);
  });

  it("SECURITY 60: guessers from many addresses are slowed, each on its own; the right password from a fresh address still works", async () => {
    const { id, key } = await makeShare({ password_hash: await hashPassword(SHARE_PASSWORD) });
    // Eight guessers at once: 40 wrong tries, past the old link-wide 30 an hour that locked everyone out.
    const guessers = Array.from({ length: 8 }, () => new TestClient());
    const tries = await Promise.all(
      guessers.map(async (guesser, index) => {
        const statuses: number[] = [];
        for (let attempt = 0; attempt < 6; attempt += 1) {
          const response = await guesser.request(`/s/${key}/api/password`, { body: { json: { password: `guess ${index}-${attempt}` } } });
          await response.arrayBuffer();
          statuses.push(response.status);
        }
        return statuses;
      }),
    );
    for (const statuses of tries) expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // Every guesser is held back, even with the right password now.
    expect((await guessers[0].request(`/s/${key}/api/password`, { body: { json: { password: SHARE_PASSWORD } } })).status).toBe(429);
    const refused = await db.selectFrom("share_access_log").select("event").where("share_id", "=", id).where("event", "=", "password_refused").execute();
    expect(refused).toHaveLength(40);

    // The recipient, from their own address, meanwhile: in at once, by the form and by JSON.
    const recipient = new TestClient();
    const right = await recipient.request(`/s/${key}/api/password`, { body: { form: { password: SHARE_PASSWORD } } });
    expect(right.status).toBe(303);
    expect(right.headers.get("location")).toBe(`/s/${key}`);
    expect(await statusOf(recipient, `/s/${key}`)).toBe(200);
    expect((await new TestClient().request(`/s/${key}/api/password`, { body: { json: { password: SHARE_PASSWORD } } })).status).toBe(204);
  });

  it("SECURITY 60: one address moving from link to link is held back after 20 tries an hour", async () => {
    const links = await Promise.all(Array.from({ length: 5 }, async () => makeShare({ password_hash: await hashPassword(SHARE_PASSWORD) })));
    const guesser = new TestClient();
    const statuses: number[] = [];
    for (const { key } of links) {
      for (let attempt = 0; attempt < 4; attempt += 1) statuses.push((await guesser.request(`/s/${key}/api/password`, { body: { json: { password: `guess ${attempt}` } } })).status);
    }
    expect(statuses).toEqual(Array<number>(20).fill(401));
    const fifth = await guesser.request(`/s/${links[4].key}/api/password`, { body: { json: { password: "guess 4" } } });
    expect(fifth.status).toBe(429);
    // Another address is not held back by it.
    expect((await new TestClient().request(`/s/${links[4].key}/api/password`, { body: { json: { password: SHARE_PASSWORD } } })).status).toBe(204);
  });

  it("ends every grant when the password changes (grant version bumped)", async () => {
    const { id, key } = await makeShare({ password_hash: await hashPassword(SHARE_PASSWORD) });
    const visitor = new TestClient();
    expect((await visitor.request(`/s/${key}/api/password`, { body: { json: { password: SHARE_PASSWORD } } })).status).toBe(204);
    expect(await statusOf(visitor, `/s/${key}/api/photos`)).toBe(200);
    await db.updateTable("shares").set((eb) => ({ grant_version: eb("grant_version", "+", 1) })).where("id", "=", id).execute();
    expect(await statusOf(visitor, `/s/${key}/api/photos`)).toBe(401);
    expect(await statusOf(visitor, `/s/${key}`)).toBe(401);
  });
});

describe("closing a link", () => {
  for (const [name, change] of [
    ["revoked", { revoked_at: new Date(Date.now() - 1000).toISOString() }],
    ["expired", { expires_at: new Date(Date.now() - 1000).toISOString() }],
  ] as const) {
    it(`${name}: 401 at once for the page, the photo page, every variant and the API of an admitted browser`, async () => {
      const { id, key } = await makeShare();
      const visitor = await admittedVisitor(key);
      const photo = ((await (await visitor.request(`/s/${key}/api/photos`)).json()) as { photos: Array<{ id: string; variants: Array<{ url: string }> }> }).photos[0];
      const paths = [`/s/${key}`, `/s/${key}/p/${photo.id}`, `/s/${key}/api/photos`, `/s/${key}/api/photos/${photo.id}`, ...photo.variants.map((variant) => variant.url)];
      for (const path of paths) expect(await statusOf(visitor, path), path).toBe(200);

      await db.updateTable("shares").set(change).where("id", "=", id).execute();
      for (const path of paths) expect(await statusOf(visitor, path), path).toBe(401);
      const page = await visitor.request(`/s/${key}`);
      expect(await page.text()).toContain(name === "revoked" ? "This link was turned off" : "This link has expired");
    });
  }

  it("answers a key one character off, and a malformed one, with the not-valid 401", async () => {
    const { key } = await makeShare();
    const offByOne = key.slice(0, -1) + (key.endsWith("A") ? "B" : "A");
    for (const path of [`/s/${offByOne}`, "/s/short", `/s/${offByOne}/api/photos`, `/s/${offByOne}/media/variants/x.jpg`]) {
      const response = await new TestClient().request(path);
      expect(response.status, path).toBe(401);
      if (!path.includes("/api/") && !path.includes("/media/")) expect(await response.text()).toContain("This link is not valid");
    }
  });

  it("does not open link B with link A's grant cookie", async () => {
    const a = await makeShare();
    const b = await makeShare({ password_hash: await hashPassword(SHARE_PASSWORD) });
    const visitor = await admittedVisitor(a.key);
    // The test client sends its cookies to every path, as a forged request would.
    expect(await statusOf(visitor, `/s/${b.key}`)).toBe(401);
    expect(await statusOf(visitor, `/s/${b.key}/api/photos`)).toBe(401);
    const variant = inShare[0].variants[0].url.replace(/^\/media\/[^/]+\//, "");
    expect(await statusOf(visitor, `/s/${b.key}/media/${variant}`)).toBe(401);
  });
});

describe("what an admitted visitor gets", () => {
  it("serves variants of the link's photos private, no-store; 404 for any other photo's, existing or not", async () => {
    const { key } = await makeShare();
    const visitor = await admittedVisitor(key);
    const storageKey = inShare[0].variants[0].url.replace(/^\/media\/[^/]+\//, "");
    const media = await visitor.request(`/s/${key}/media/${storageKey}`);
    expect(media.status).toBe(200);
    expect(media.headers.get("cache-control")).toBe("private, no-store");
    expect(media.headers.get("content-type")).toMatch(/^image\//);
    expect((await media.arrayBuffer()).byteLength).toBeGreaterThan(100);
    const etag = media.headers.get("etag") as string;
    expect((await visitor.request(`/s/${key}/media/${storageKey}`, { headers: { "If-None-Match": etag } })).status).toBe(304);

    const outsideKey = outside.variants[0].url.replace(/^\/media\/[^/]+\//, "");
    const refused = await visitor.request(`/s/${key}/media/${outsideKey}`);
    expect(refused.status).toBe(404);
    const missing = await visitor.request(`/s/${key}/media/variants/zz/nothing/here.jpg`);
    expect(missing.status).toBe(404);
    expect(await refused.text()).toBe(await missing.text());
    expect(await statusOf(visitor, `/s/${key}/media/originals/${outside.id}`)).toBe(404);
    // Nor the photo page or its JSON.
    expect(await statusOf(visitor, `/s/${key}/p/${outside.id}`)).toBe(404);
    expect(await statusOf(visitor, `/s/${key}/api/photos/${outside.id}`)).toBe(404);
  });

  it("pages the link's photos in its order by keyset cursor", async () => {
    const { key } = await makeShare({}, [inShare[1].id, inShare[0].id]);
    const visitor = await admittedVisitor(key);
    const first = (await (await visitor.request(`/s/${key}/api/photos?limit=1`)).json()) as { photos: Array<{ id: string }>; nextCursor: string };
    expect(first.photos.map((photo) => photo.id)).toEqual([inShare[1].id]);
    const second = (await (await visitor.request(`/s/${key}/api/photos?limit=1&cursor=${first.nextCursor}`)).json()) as { photos: Array<{ id: string }>; nextCursor: string | null };
    expect(second.photos.map((photo) => photo.id)).toEqual([inShare[0].id]);
    expect(second.nextCursor).toBeNull();
    expect(await statusOf(visitor, `/s/${key}/api/photos?cursor=%00bad`)).toBe(400);

    const detail = (await (await visitor.request(`/s/${key}/api/photos/${inShare[0].id}`)).json()) as { previousId: string | null; nextId: string | null };
    // Its place in the link's order too: the share viewer's counter ("2 / 2").
    expect(detail).toMatchObject({ previousId: inShare[1].id, nextId: null, position: { index: 2, total: 2 } });
  });

  it("hides location and EXIF from the JSON and the photo page when the link does", async () => {
    const { id, key } = await makeShare({ show_exif: 0, show_location: 0, download: "none" });
    const visitor = await admittedVisitor(key);
    const listText = await (await visitor.request(`/s/${key}/api/photos`)).text();
    const detailText = await (await visitor.request(`/s/${key}/api/photos/${inShare[0].id}`)).text();
    const pageHtml = await (await visitor.request(`/s/${key}/p/${inShare[0].id}`)).text();
    const location = inShare[0].location as { latitude: number; longitude: number };
    expect(location).toBeTruthy();
    for (const text of [listText, detailText, pageHtml]) {
      expect(text).not.toContain(String(location.latitude).slice(0, 7));
      expect(text).not.toContain(String(location.longitude).slice(0, 7));
      expect(text).not.toContain(location.latitude.toFixed(4));
      expect(text).not.toContain("NIKON");
      expect(text).not.toContain("DSCN");
      expect(text).not.toContain(owner.email);
      expect(text).not.toContain("/download");
    }
    const detail = JSON.parse(detailText) as { photo: Record<string, unknown> };
    expect(detail.photo).toMatchObject({ location: null, placeName: null, exif: null, takenAt: null, downloadUrl: null });
    expect(Object.keys(detail.photo)).not.toContain("originalName");
    expect(pageHtml).not.toContain('data-testid="exif-summary"');
    expect(pageHtml).not.toContain('data-testid="share-photo-location"');
    // Nor the stored place in words (issue 31), anywhere.
    for (const text of [listText, detailText, pageHtml]) expect(text).not.toMatch(/Arezzo|Tuscany/);
    const views = await db.selectFrom("share_access_log").select(["event", "photo_id"]).where("share_id", "=", id).where("event", "=", "view_photo").execute();
    expect(views).toEqual([{ event: "view_photo", photo_id: inShare[0].id }]);
  });

  it("shows them when the link does, and links the downloads the link allows", async () => {
    const { key } = await makeShare({ show_exif: 1, show_location: 1, download: "copy", allow_zip: 1 });
    const visitor = await admittedVisitor(key);
    const detail = (await (await visitor.request(`/s/${key}/api/photos/${inShare[0].id}`)).json()) as { photo: { location: { latitude: number } | null; exif: { cameraMake: string | null } | null; downloadUrl: string | null } };
    expect(detail.photo.location?.latitude).toBeCloseTo((inShare[0].location as { latitude: number }).latitude, 4);
    expect(detail.photo.exif?.cameraMake).toMatch(/NIKON/i);
    expect(detail.photo.downloadUrl).toBe(`/s/${key}/p/${inShare[0].id}/download`);
    const pageHtml = await (await visitor.request(`/s/${key}/p/${inShare[0].id}`)).text();
    expect(pageHtml).toContain('data-testid="exif-summary"');
    expect(pageHtml).toContain('data-testid="share-photo-location"');
    expect(pageHtml).toContain(`href="/s/${key}/p/${inShare[0].id}/download"`);
    // The stored place (issue 31): the town processing named, not only the country the coordinates are in.
    expect((detail.photo as { placeName?: string | null }).placeName).toBe("Arezzo, Tuscany, Italy");
    expect(pageHtml).toContain("Arezzo, Tuscany, Italy");
    const galleryHtml = await (await visitor.request(`/s/${key}`)).text();
    expect(galleryHtml).toContain(`href="/s/${key}/download.zip"`);
  });
});
