import fs from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import { bearer, createApiToken } from "./helpers/api-tokens";
import { uploadCorpusFile, waitForProcessing } from "./helpers/photos";
import { signedInAs, TestClient } from "./helpers/test-client";

const ROOT = path.resolve(import.meta.dirname, "..");

type OpenApiDocument = Record<string, unknown> & {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>>;
  components: { schemas: Record<string, object> };
};

/** Every route file under app/ (the API, /media and the photo page's download). */
function listRouteFiles(): string[] {
  return fs
    .readdirSync(path.join(ROOT, "app"), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name === "route.ts")
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"));
}

/**
 * The URL a route file answers at, worked out here on its own (not with the app's converter), with
 * its dynamic segments as `{…}`; an optional catch-all answers at the bare path too.
 */
function expectedPaths(file: string): string[] {
  const url = `/${file.replace(/^app\//, "").replace(/\/?route\.ts$/, "")}`
    .split("/")
    .filter((segment) => !segment.startsWith("("))
    .join("/");
  if (url.includes("[[...")) return [url.replace(/\/\[\[\.\.\.(\w+)\]\]$/, ""), url.replace(/\[\[\.\.\.(\w+)\]\]/, "{$1}")];
  return [url.replace(/\[(?:\.\.\.)?(\w+)\]/g, "{$1}")];
}

let document: OpenApiDocument;

beforeAll(async () => {
  // Public: read without signing in.
  const response = await new TestClient().request("/api/openapi.json");
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("application/json");
  document = (await response.json()) as OpenApiDocument;
});

describe("GET /api/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("documents every route file, and nothing that has no route file", () => {
    const files = listRouteFiles();
    expect(files.length).toBeGreaterThan(20);
    const expected = files.flatMap(expectedPaths).sort();
    expect(Object.keys(document.paths).sort()).toEqual(expected);
  });

  it("gives token routes their scope and least role, and session-only routes no token", () => {
    const listPhotos = document.paths["/api/photos"].get as unknown as { security: object[]; "x-minimum-role": string };
    expect(listPhotos.security).toEqual([{ sessionCookie: ["viewer"] }, { apiToken: ["photos:read"] }]);
    const createToken = document.paths["/api/tokens"].post as unknown as { security: object[] };
    expect(createToken.security).toEqual([{ sessionCookie: ["viewer"] }]);
    const health = document.paths["/api/health"].get as unknown as { security: object[] };
    expect(health.security).toEqual([]);
  });
});

describe("GET /api/docs", () => {
  it("is a public HTML page that lists every documented path and loads nothing from elsewhere", async () => {
    const response = await new TestClient().request("/api/docs");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    const html = await response.text();
    for (const documentedPath of Object.keys(document.paths)) expect(html).toContain(`>${documentedPath.replace(/&/g, "&amp;")}<`);
    expect(html).not.toMatch(/<script|<link[^>]+href="https?:|src="https?:/);
  });
});

describe("the document and the reference take nothing and tell nothing private", () => {
  it.each(["/api/openapi.json", "/api/docs"])("%s refuses every write with a JSON 405 and Allow", async (documentPath) => {
    const client = new TestClient();
    for (const method of ["POST", "PUT", "PATCH", "DELETE"] as const) {
      const response = await client.request(documentPath, { method, body: { json: { openapi: "3.1.0", paths: {} } } });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("METHOD_NOT_ALLOWED");
    }
  });

  it("is the same document for a visitor, a signed-in admin and any query string", async () => {
    const { client: admin } = await signedInAs("admin");
    const asAdmin = await (await admin.request("/api/openapi.json?include=private&debug=1")).text();
    expect(JSON.parse(asAdmin)).toEqual(document);
  });
});

describe("real answers match their documented schemas", () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });

  function responseSchema(documentPath: string, method: string, status: string): object {
    const content = document.paths[documentPath][method].responses[status].content;
    expect(content, `${method} ${documentPath} ${status} documents a JSON body`).toBeDefined();
    return content!["application/json"].schema;
  }

  /** Validates against the schema as the document gives it, with the document's components for $refs. */
  function expectMatches(body: unknown, schema: object): void {
    const validate = ajv.compile({ ...schema, components: document.components });
    const isValid = validate(body);
    expect(validate.errors ?? [], JSON.stringify(body).slice(0, 2000)).toEqual([]);
    expect(isValid).toBe(true);
  }

  let owner: TestClient;
  let photoId: string;

  beforeAll(async () => {
    ({ client: owner } = await signedInAs("editor"));
    // A photo with EXIF and a location, so the nullable fields are filled in for its owner.
    const uploaded = await uploadCorpusFile(owner, "exif-samples/jpg/gps/DSCN0010.jpg");
    photoId = uploaded.id;
    const photo = await waitForProcessing(owner, photoId);
    expect(photo.status).toBe("ready");
  }, 120_000);

  it("GET /api/photos, with a session and with a token", async () => {
    const withSession = await owner.request("/api/photos?owner=me&limit=5");
    expect(withSession.status).toBe(200);
    const page = (await withSession.json()) as { photos: Array<{ id: string }> };
    expect(page.photos.map((photo) => photo.id)).toContain(photoId);
    expectMatches(page, responseSchema("/api/photos", "get", "200"));

    const { secret } = await createApiToken(owner, ["photos:read"]);
    const withToken = await new TestClient().request("/api/photos", { headers: bearer(secret) });
    expect(withToken.status).toBe(200);
    expectMatches(await withToken.json(), responseSchema("/api/photos", "get", "200"));
  });

  it("GET /api/photos/{id}, for its owner (location and all) and for another member", async () => {
    const asOwner = await owner.request(`/api/photos/${photoId}`);
    expect(asOwner.status).toBe(200);
    const body = (await asOwner.json()) as { photo: { location: unknown; exif: { cameraModel: unknown } } };
    expect(body.photo.location).not.toBeNull();
    expect(body.photo.exif.cameraModel).not.toBeNull();
    expectMatches(body, responseSchema("/api/photos/{id}", "get", "200"));

    const madeMembersOnly = await owner.request(`/api/photos/${photoId}`, { method: "PATCH", body: { json: { visibility: "members" } } });
    expect(madeMembersOnly.status).toBe(200);
    expectMatches(await madeMembersOnly.json(), responseSchema("/api/photos/{id}", "patch", "200"));
    const { client: member } = await signedInAs("viewer");
    const asMember = await member.request(`/api/photos/${photoId}`);
    expect(asMember.status).toBe(200);
    expectMatches(await asMember.json(), responseSchema("/api/photos/{id}", "get", "200"));
  });

  it("refusals match the error shape at a status the document lists", async () => {
    const cases: Array<[string, string, Response]> = [
      ["/api/photos/{id}", "get", await owner.request("/api/photos/no-such-photo")],
      ["/api/photos", "get", await owner.request("/api/photos?limit=1000")],
      ["/api/photos", "get", await new TestClient().request("/api/photos", { headers: bearer("cs_not-a-token") })],
      ["/api/photos/{id}", "patch", await owner.request(`/api/photos/${photoId}`, { method: "PATCH", body: { raw: "{", contentType: "application/json" } })],
    ];
    for (const [documentPath, method, response] of cases) {
      expect(Object.keys(document.paths[documentPath][method].responses)).toContain(String(response.status));
      expectMatches(await response.json(), responseSchema(documentPath, method, String(response.status)));
    }
    expect(cases.map(([, , response]) => response.status)).toEqual([404, 422, 401, 400]);
  });
});
