import { describe, expect, it } from "vitest";
import { TestClient } from "./helpers/test-client";

function documentTitle(html: string): string | undefined {
  return /<title>([^<]*)<\/title>/.exec(html)?.[1];
}

describe("error pages with the seed's titles", () => {
  it("404 This page could not be found", async () => {
    const response = await new TestClient().request("/no-such-page");
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(documentTitle(html)).toBe("404: This page could not be found");
    expect(html).toContain("This page could not be found");
  });

  it.each(["POST", "PUT", "PATCH", "DELETE"])("405 Method Not Allowed for %s on a page, with Allow", async (method) => {
    const response = await new TestClient().request("/", { method, body: { raw: "x=1", contentType: "application/x-www-form-urlencoded" } });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
    expect(documentTitle(await response.text())).toBe("405: Method Not Allowed");
  });

  it("400 Bad Request for a path that does not decode", async () => {
    const response = await new TestClient().request("/%E0%A4%A");
    expect(response.status).toBe(400);
    expect(documentTitle(await response.text())).toBe("400: Bad Request");
  });

  it("403 for a page the role does not allow uses the catalogue's title for other statuses", async () => {
    const { signedInAs } = await import("./helpers/test-client");
    const { client } = await signedInAs("viewer");
    const response = await client.request("/admin");
    expect(response.status).toBe(403);
    expect(documentTitle(await response.text())).toBe("403: An unexpected error has occurred");
  });
});

describe("API errors answer JSON with the same status", () => {
  it("404 for an unknown API path, for every method", async () => {
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
      const response = await new TestClient().request("/api/no-such-endpoint", { method });
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: "NOT_FOUND", message: expect.any(String) } });
    }
  });

  it("405 with Allow for a method a route does not take", async () => {
    const response = await new TestClient().request("/api/health", { method: "DELETE" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(await response.json()).toMatchObject({ error: { code: "METHOD_NOT_ALLOWED" } });
    const options = await new TestClient().request("/api/health", { method: "OPTIONS" });
    expect(options.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });

  it("400 JSON for an API path that does not decode", async () => {
    const response = await new TestClient().request("/api/%E0%A4%A");
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: "BAD_REQUEST" } });
  });
});
