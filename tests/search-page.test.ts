import { beforeAll, describe, expect, it } from "vitest";
import { createPrivacyWorld, expectNoSecrets, type PrivacyWorld } from "./helpers/privacy-world";
import type { TestClient } from "./helpers/test-client";

// The /search page (issue 15) through the real server: what a visitor and a member get in the
// whole HTML answer (markup and RSC payload) for queries aimed at photos they may not list
// (SECURITY.md 43), with the public photo as the positive control; a bad query's message; the
// hostile inputs that must never be a 500.

let world: PrivacyWorld;

beforeAll(async () => {
  world = await createPrivacyWorld("searchpage");
}, 240_000);

async function searchPage(client: TestClient, q: string): Promise<string> {
  const response = await client.request(`/search?${new URLSearchParams({ q })}`);
  const html = await response.text();
  expect(response.status, `/search?q=${q} answered ${response.status}`).toBe(200);
  return html;
}

const tileOf = (id: string) => `href="/p/${id}"`;

describe("/search for a visitor", () => {
  it("finds the public photo by its word, with its camera and tag among the facets", async () => {
    const { photos } = world;
    const html = await searchPage(world.visitor, photos.public.word);
    expect(html).toContain(tileOf(photos.public.id));
    expect(html).toContain(`tag:${photos.public.tag.toLowerCase()}`);
    expect(html).toMatch(/data-token="camera:[a-z0-9-]*iphone-6"/);
    expectNoSecrets(html, world.secretsHiddenFrom("visitor"), "the public photo's results");
  });

  it("shows nothing of an unlisted, members-only or private photo, by word, tag or camera", async () => {
    const secrets = world.secretsHiddenFrom("visitor");
    for (const visibility of ["unlisted", "members", "private"] as const) {
      const photo = world.photos[visibility];
      for (const q of [photo.word, `tag:${photo.tag}`, `${world.photos.public.word.slice(0, 6)} ${photo.word}`]) {
        const html = await searchPage(world.visitor, q);
        expect(html, q).toContain('data-testid="search-empty"');
        // The query itself is on the page (the box, the chips): every other secret must not be.
        expectNoSecrets(html, secrets.filter((secret) => !q.toLowerCase().includes(secret.toLowerCase())), `/search?q=${q}`);
      }
    }
  });

  it("never lists a photo by a private album's title or a share's title", async () => {
    for (const q of [world.privateAlbum.word, world.share.word, `album:${world.privateAlbum.slug}`]) {
      const html = await searchPage(world.visitor, q);
      expect(html, q).not.toContain(tileOf(world.photos.public.id));
      expect(html, q).toContain('data-testid="search-empty"');
    }
  });

  it("lists the whole gallery and its facets for an empty query without a secret", async () => {
    const html = await searchPage(world.visitor, "");
    expect(html).toContain('data-testid="grid-photo"');
    expectNoSecrets(html, world.secretsHiddenFrom("visitor"), "/search");
    // The public album holds all four: narrowing to it shows the public photo only.
    const album = await searchPage(world.visitor, `album:${world.publicAlbum.slug}`);
    expect(album).toContain(tileOf(world.photos.public.id));
    expectNoSecrets(album, world.secretsHiddenFrom("visitor"), "the public album's results");
  });
});

describe("/search by a substring", () => {
  it("finds the public photo by letters inside its word, shows a removable chip, and nothing of a secret photo's", async () => {
    const { photos } = world;
    const inside = photos.public.word.slice(3);
    const html = await searchPage(world.visitor, `*${inside.toUpperCase()}*`);
    expect(html).toContain(tileOf(photos.public.id));
    expect(html).toContain('<span class="search-chip-field">Contains</span>');
    expect(html).toContain(`aria-label="Remove contains ${inside.toLowerCase()}"`);
    expectNoSecrets(html, world.secretsHiddenFrom("visitor"), "the public photo's substring");
    for (const visibility of ["unlisted", "members", "private"] as const) {
      const q = `*${photos[visibility].word.slice(3)}*`;
      const hidden = await searchPage(world.visitor, q);
      expect(hidden, q).toContain('data-testid="search-empty"');
      expectNoSecrets(hidden, world.secretsHiddenFrom("visitor"), `/search?q=${q}`);
    }
  });

  it("explains the syntax in the help, and names a substring too short to look up", async () => {
    const html = await searchPage(world.visitor, "*ab*");
    expect(html).toContain("*ab* is too short: a substring needs at least 3 letters or digits");
    expect(html).toContain('data-testid="search-problem"');
    expect(html).toContain("<code>*part*</code>");
    expect(html).toContain("Boston and cartons");
  });
});

describe("/search for a member", () => {
  it("finds the members-only photo, never the unlisted or private one", async () => {
    const { photos } = world;
    const html = await searchPage(world.member, photos.members.word);
    expect(html).toContain(tileOf(photos.members.id));
    const both = await searchPage(world.member, `tag:${photos.public.tag}`);
    expect(both).toContain(tileOf(photos.public.id));
    expectNoSecrets(both, world.secretsHiddenFrom("member"), "the member's results");
    for (const visibility of ["unlisted", "private"] as const) {
      const photo = photos[visibility];
      const hidden = await searchPage(world.member, photo.word);
      expect(hidden).toContain('data-testid="search-empty"');
      expectNoSecrets(hidden, world.secretsHiddenFrom("member").filter((secret) => secret !== photo.word), `/search?q=${photo.word} (member)`);
    }
  });
});

describe("/search with a bad or hostile query", () => {
  it("names the token it cannot read and still renders the page", async () => {
    const html = await searchPage(world.visitor, "beach year:20x9");
    expect(html).toContain("year:20x9 is not a year (use year:2019)");
    expect(html).toContain('data-testid="search-problem"');
    expect(html).toContain("How to search");
  });

  it.each([
    ["SQL", "'; DROP TABLE photos; --"],
    ["FTS operators", 'NEAR(a b) OR * ^x AND "unbalanced'],
    ["10 kB", "a".repeat(10_240)],
    ["controls", "beach\u0001\u001f x"],
    ["emoji, RTL and combining marks", "🏖️ שלום e\u0301te\u0301 \u202Ebeach"],
    ["unknown field", "foo:bar"],
    ["lone surrogate", "\uD800beach"],
    ["LIKE and FTS syntax in a substring", '*%_%* *"NEAR"* *a*'],
    ["10 kB substring", `*${"a".repeat(10_240)}*`],
    ["1,000 substrings", "*aaa* ".repeat(1000)],
  ])("%s: never a 500", async (_name, q) => {
    const html = await searchPage(world.visitor, q);
    expect(html).toContain("Search");
    expectNoSecrets(html, world.secretsHiddenFrom("visitor"), `/search?q=${q.slice(0, 40)}`);
  });

  it("a NUL: the interceptor's 400 page (SECURITY.md 58), never a 500", async () => {
    const response = await world.visitor.request(`/search?${new URLSearchParams({ q: "beach\u0000 x" })}`);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("<html");
  });
});
