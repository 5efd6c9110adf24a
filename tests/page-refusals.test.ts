import { describe, expect, it } from "vitest";
import { signedInAdmin, signedInAs, TestClient } from "./helpers/test-client";

// What a visitor's browser is answered where it may not go: statuses, JSON error bodies, redirects
// and what a refused page leaves out. Moved from the e2e specs named at each test
// (they asked a browser for what a plain request shows), so they run on both databases.

async function json<T>(response: Response, status: number): Promise<T> {
  expect(response.status, await response.clone().text()).toBe(status);
  return (await response.json()) as T;
}

// From e2e/access.spec.ts ("a signed-out visitor gets a 401 JSON answer from /api/photos").
describe("a signed-out visitor on the photos API", () => {
  it("gets a 401 JSON answer, also when a browser navigates there (no page, no redirect to sign in)", async () => {
    const visitor = new TestClient();
    const answer = await visitor.request("/api/photos");
    expect(answer.status).toBe(401);
    expect(answer.headers.get("content-type")).toContain("application/json");
    expect(await answer.json()).toEqual({ error: { code: "UNAUTHENTICATED", message: expect.any(String) } });

    const navigation = await visitor.request("/api/photos", {
      headers: { Accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document" },
    });
    expect(navigation.status).toBe(401);
    expect(navigation.headers.get("location")).toBeNull();
    expect(await navigation.json()).toMatchObject({ error: { code: "UNAUTHENTICATED" } });
  });
});

// From e2e/tokens.spec.ts ("a viewer cannot open /admin/tokens").
describe("/admin/tokens", () => {
  it("is the 403 page for a viewer, without the form that makes a token; an editor gets the form", async () => {
    const { client: viewer } = await signedInAs("viewer");
    const refused = await viewer.request("/admin/tokens");
    expect(refused.status).toBe(403);
    const refusal = await refused.text();
    expect(refusal).toContain("forbidden-message");
    // Neither in the HTML nor in the page's data for the browser to render.
    expect(refusal).not.toContain("Create an API token");

    const { client: editor } = await signedInAs("editor");
    const page = await editor.request("/admin/tokens");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('aria-label="Create an API token"');
  });
});

// From e2e/albums.spec.ts ("an album that is not public is a 404 for a visitor, and an old address redirects to the new one").
describe("an album's address", () => {
  it("is a 404 for a visitor while the album is not public; once renamed and public, the old address redirects to the new one", async () => {
    const admin = await signedInAdmin();
    const visitor = new TestClient();
    const stamp = `${Date.now() % 1_000_000}-${process.pid}`;
    const { album } = await json<{ album: { id: string; slug: string } }>(
      await admin.request("/api/albums", { body: { json: { title: `Private ${stamp}`, slug: `private-${stamp}` } } }),
      201,
    );
    expect((await visitor.request(`/albums/${album.slug}`)).status).toBe(404);

    await json(await admin.request(`/api/albums/${album.id}`, { method: "PATCH", body: { json: { slug: `renamed-${stamp}`, visibility: "public" } } }), 200);
    const old = await visitor.request(`/albums/${album.slug}`);
    expect(old.status).toBe(308);
    expect(old.headers.get("location")).toMatch(new RegExp(`/albums/renamed-${stamp}$`));
    const renamed = await visitor.request(`/albums/renamed-${stamp}`);
    expect(renamed.status).toBe(200);
    expect(await renamed.text()).toContain(`<h1 data-testid="album-title">Private ${stamp}</h1>`);
  });
});
