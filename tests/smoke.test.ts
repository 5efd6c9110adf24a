import { describe, expect, it } from "vitest";
import { signedInAs, TestClient } from "./helpers/test-client";

describe("smoke", () => {
  it("signs a viewer in and answers the photos API", async () => {
    const { client, user } = await signedInAs("viewer");
    const response = await client.request("/api/photos");
    expect(response.status).toBe(200);
    // Other test files share the server, so the list may already hold photos this viewer may see.
    expect(await response.json()).toMatchObject({ viewer: { id: user.id, role: "viewer" }, photos: expect.any(Array) });
    expect(await new TestClient().request("/api/photos").then((r) => r.status)).toBe(401);
  });

  it("answers /favicon.ico, which browsers ask for whatever the page links", async () => {
    const response = await new TestClient().request("/favicon.ico");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/image\/(x-icon|vnd\.microsoft\.icon)/);
    expect(new Uint8Array(await response.arrayBuffer()).slice(0, 4)).toEqual(new Uint8Array([0, 0, 1, 0]));
  });
});
