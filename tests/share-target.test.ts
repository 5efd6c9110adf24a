import { describe, expect, inject, it } from "vitest";
import { corpusFile } from "./helpers/photos";
import { openTestDatabase } from "./helpers/test-database";
import { signedInAs, TestClient } from "./helpers/test-client";

// "Share → Contact Sheet" from a phone's gallery: the manifest's share target, the worker that takes
// the share sheet's post in the browser (e2e/upload.spec.ts drives it), and the server's answer to a
// post that reached it without that worker.

async function photoCountOf(ownerId: string): Promise<number> {
  const db = openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
  try {
    const rows = await db.selectFrom("photos").where("owner_id", "=", ownerId).select("id").execute();
    return rows.length;
  } finally {
    await db.destroy();
  }
}

describe("the share target", () => {
  it("is in the web manifest: photos posted as multipart to /api/upload/share", async () => {
    const response = await new TestClient().request("/manifest.webmanifest");
    expect(response.status).toBe(200);
    const manifest = (await response.json()) as { share_target?: unknown };
    expect(manifest.share_target).toEqual({
      action: "/api/upload/share",
      method: "POST",
      enctype: "multipart/form-data",
      params: { files: [{ name: "photos", accept: expect.arrayContaining(["image/jpeg", "image/heic", ".heic"]) }] },
    });
  });

  it("serves the upload page's worker as a script", async () => {
    const response = await new TestClient().request("/upload-share-worker.js");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/javascript/);
    expect(await response.text()).toContain('"/api/upload/share"');
  });

  it("stores nothing from a post that reached the server and sends it to the upload page, which explains", async () => {
    const { client, user } = await signedInAs("editor");
    const form = new FormData();
    form.append("photos", new Blob([corpusFile("exif-samples/jpg/Canon_40D.jpg")], { type: "image/jpeg" }), "Canon_40D.jpg");
    const response = await client.request("/api/upload/share", { body: { multipart: form } });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/admin/upload?shared=missed");
    expect(await photoCountOf(user.id)).toBe(0);
  });

  it("refuses a post from another site, or from no one signed in, like any other upload", async () => {
    const { client } = await signedInAs("editor");
    expect((await client.request("/api/upload/share", { body: { form: { photos: "x" } }, origin: "https://evil.example" })).status).toBe(403);
    expect((await new TestClient().request("/api/upload/share", { body: { form: { photos: "x" } } })).status).toBe(401);
  });
});
