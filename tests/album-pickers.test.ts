// Nested albums over HTTP against the built app (issue 27): the album pickers show the tree, so two
// sub-albums called "2024" can be told apart, and a parent without photos of its own says what its
// sub-albums hold instead of "No photos yet", to its visitors too. The pages are read as the server
// renders them (every picker here is in the first HTML).
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openTestDatabase } from "./helpers/test-database";
import { signedInAs, type TestClient, TestClient as Client, type TestUser } from "./helpers/test-client";

const db = openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
afterAll(() => db.destroy());

let editor: { client: TestClient; user: TestUser };
let run: string;
const albums: Record<string, { id: string; slug: string }> = {};

async function createAlbum(key: string, body: Record<string, unknown>): Promise<void> {
  const response = await editor.client.request("/api/albums", { body: { json: { visibility: "public", ...body } } });
  expect(response.status, await response.clone().text()).toBe(201);
  albums[key] = ((await response.json()) as { album: { id: string; slug: string } }).album;
}

async function html(client: TestClient, path: string): Promise<string> {
  const response = await client.request(path);
  expect(response.status, path).toBe(200);
  return response.text();
}

/** The <option>s of a page's HTML: value, title and text. */
function options(page: string): Array<{ value: string; title: string | null; text: string }> {
  return [...page.matchAll(/<option value="([^"]*)"(?: title="([^"]*)")?[^>]*>([^<]*)<\/option>/g)].map(([, value, title, text]) => ({ value, title: title ?? null, text }));
}

beforeAll(async () => {
  run = `pick${Date.now().toString(36)}`;
  editor = await signedInAs("editor");
  await createAlbum("travel", { title: "Travel", slug: `${run}-travel` });
  await createAlbum("family", { title: "Family", slug: `${run}-family` });
  await createAlbum("travel2024", { title: "2024", slug: `${run}-travel-2024`, parentId: albums.travel.id });
  await createAlbum("family2024", { title: "2024", slug: `${run}-family-2024`, parentId: albums.family.id });
  await createAlbum("spring", { title: "Spring", slug: `${run}-spring`, parentId: albums.travel2024.id });
  const now = new Date().toISOString();
  await db
    .insertInto("photos")
    .values(["public", "private"].map((visibility) => ({
      id: `${run}-${visibility}`, owner_id: editor.user.id, sha256: `${run}-${visibility}`, status: "ready" as const, visibility: visibility as "public" | "private",
      original_key: `originals/${run}-${visibility}`, original_name: `${visibility}.jpg`, original_type: "image/jpeg", original_size: 1, width: 300, height: 200,
      sort_at: now, created_at: now, updated_at: now,
    })))
    .execute();
  const response = await editor.client.request(`/api/albums/${albums.spring.id}/photos`, { body: { json: { photoIds: [`${run}-public`, `${run}-private`] } } });
  expect(response.status, await response.clone().text()).toBe(200);
}, 60_000);

/** This run's albums' ids. */
const ours = () => new Set(Object.values(albums).map((album) => album.id));

describe("album pickers", () => {
  const nested = () => [
    { value: albums.family.id, title: "Family", text: "Family" },
    { value: albums.family2024.id, title: "Family › 2024", text: "\u20032024 (Family)" },
    { value: albums.travel.id, title: "Travel", text: "Travel" },
    { value: albums.travel2024.id, title: "Travel › 2024", text: "\u20032024 (Travel)" },
    { value: albums.spring.id, title: "Travel › 2024 › Spring", text: "\u2003\u2003Spring (Travel › 2024)" },
  ];

  it("'Inside' in Admin → Albums lists the tree, indented, each nested album with the albums above it", async () => {
    const page = await html(editor.client, "/admin/albums");
    expect(options(page).filter((option) => ours().has(option.value))).toEqual(nested());
    // The list below the form says where each album is.
    expect(page).toContain(`in Travel › 2024`);
  });

  it("the album editor's 'Inside' leaves out the album and what is under it", async () => {
    const page = await html(editor.client, `/admin/albums/${albums.travel2024.id}`);
    const ids = options(page).map((option) => option.value);
    expect(ids).toContain(albums.family2024.id);
    expect(ids).not.toContain(albums.travel2024.id);
    expect(ids).not.toContain(albums.spring.id);
  });

  it("the library's album filter lists the same tree", async () => {
    const page = await html(editor.client, "/admin/photos");
    expect(options(page).filter((option) => ours().has(option.value)).map(({ value, text }) => ({ value, text }))).toEqual(nested().map(({ value, text }) => ({ value, text })));
  });
});

describe("a parent album without photos of its own", () => {
  it("tells a visitor how many photos its sub-albums hold (only those they may see), not 'No photos yet'", async () => {
    const visitor = new Client();
    const travel = await html(visitor, `/albums/${albums.travel.slug}`);
    expect(travel).toMatch(/data-testid="album-photo-count">1 photo in sub-albums</);
    expect(travel).not.toContain("No photos yet");
    const owner = await html(editor.client, `/albums/${albums.travel.slug}`);
    expect(owner).toMatch(/data-testid="album-photo-count">2 photos in sub-albums</);
  });
});
