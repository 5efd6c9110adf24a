import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Database } from "@/src/db/database";
import { createApiToken } from "./helpers/api-tokens";
import { uploadCorpusFile, waitForProcessing } from "./helpers/photos";
import { createTestUser, signedInAdmin, TestClient } from "./helpers/test-client";
import { openTestDatabase } from "./helpers/test-database";
import { enterShareLink } from "./helpers/share-entry";

// SECURITY.md 58: a NUL byte (%00, \u0000) or invalid UTF-8 (%C3%28, a lone 0xFF) in any id, slug,
// key, query value or JSON body value, on every route and page in app/, as an anonymous visitor, a
// signed-in admin and a share link's visitor, is answered 4xx (or an ordinary 200/3xx/404 page),
// never 5xx. PostgreSQL refuses NUL in text outright (22021): before the interceptor, the wrappers
// and the pages checked text through src/validation/input-text.ts, this test found 38 route and
// method pairs answering 500 on PostgreSQL (9 of them to an anonymous visitor or a share visitor)
// and 6 on SQLite (a NUL in a share key's cookie path, next-auth's callbackUrl, the audit page).
//
// The routes come from the file tree (every route.ts and page.tsx under app/), their methods, query
// parameters and JSON bodies from the OpenAPI document the wrappers generate, so a new route is
// probed without touching this file. One request per route, case and client, sent in small batches.

const ROOT = path.resolve(import.meta.dirname, "..");

/** What goes into a path segment or a query value, percent-encoded as a client would send it. */
const HOSTILE_SEGMENTS = { nul: "a%00b", "invalid UTF-8": "a%C3%28%FFb" } as const;
type HostileKind = keyof typeof HOSTILE_SEGMENTS;

/** Query names a page or route may read without documenting them (pages have no OpenAPI entry). */
const COMMON_QUERY_NAMES = ["q", "cursor", "album", "sort", "page", "tag", "next", "callbackUrl", "error", "entered", "url", "format", "size", "w"];

const METHODS = ["get", "post", "put", "patch", "delete"] as const;
type Method = (typeof METHODS)[number];

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  minItems?: number;
}

interface Operation {
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

interface OpenApiDocument {
  paths: Record<string, Partial<Record<Method, Operation>> & { parameters?: Array<{ name: string; in: string }> }>;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** One route or page of app/: its URL pattern with `[name]` segments, and whether it is a page. */
interface Route {
  pattern: string;
  kind: "route" | "page";
}

function listRoutes(): Route[] {
  return fs
    .readdirSync(path.join(ROOT, "app"), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && (entry.name === "route.ts" || entry.name === "page.tsx"))
    .map((entry) => {
      const relative = path.relative(path.join(ROOT, "app"), path.join(entry.parentPath, entry.name)).split(path.sep);
      const segments = relative.slice(0, -1).filter((segment) => !segment.startsWith("("));
      return { pattern: `/${segments.join("/")}`, kind: entry.name === "page.tsx" ? ("page" as const) : ("route" as const) };
    })
    .sort((a, b) => a.pattern.localeCompare(b.pattern));
}

/** The names of a pattern's dynamic segments, in order (`[id]`, `[...key]`, `[[...path]]`). */
function paramNames(pattern: string): string[] {
  return [...pattern.matchAll(/\[\[?(?:\.\.\.)?(\w+)\]?\]/g)].map((match) => match[1]);
}

/** The OpenAPI path of a route pattern (`/albums/[slug]/feed.xml` → `/albums/{slug}/feed.xml`). */
function openApiPath(pattern: string): string {
  return pattern.replace(/\/\[\[\.\.\.(\w+)\]\]$/, "/{$1}").replace(/\[(?:\.\.\.)?(\w+)\]/g, "{$1}");
}

interface World {
  photoId: string;
  variantPath: string;
  storageKey: string;
  albumId: string;
  albumSlug: string;
  tagId: string;
  tagName: string;
  shareId: string;
  shareKey: string;
  userId: string;
  tokenId: string;
}

/** A valid value for a segment, so that a hostile value in another segment, the query or the body is what is tested. */
function validSegment(pattern: string, name: string, world: World): string {
  const enc = encodeURIComponent;
  if (name === "key" && pattern.startsWith("/s/")) return world.shareKey;
  if (name === "key" && pattern.startsWith("/media")) return world.variantPath;
  if (name === "storageKey") return world.storageKey.split("/").map(enc).join("/");
  if (name === "photoId") return world.photoId;
  if (name === "slug") return enc(world.albumSlug);
  if (name === "tag") return enc(world.tagName);
  if (name === "id") {
    if (/\/albums/.test(pattern)) return world.albumId;
    if (/\/shares/.test(pattern)) return world.shareId;
    if (/\/users/.test(pattern)) return world.userId;
    if (/\/tokens/.test(pattern)) return world.tokenId;
    if (/\/tags/.test(pattern)) return world.tagId;
    return world.photoId;
  }
  if (name === "nextauth") return "session";
  if (name === "part") return "0";
  if (name === "path" && pattern.startsWith("/og")) return `p/${world.photoId}.png`;
  return "x";
}

function fillPattern(pattern: string, values: Record<string, string>): string {
  return pattern.replace(/\[\[?(?:\.\.\.)?(\w+)\]?\]/g, (_, name: string) => values[name]);
}

/** The string every text field of a hostile JSON body carries; replaced by raw bytes for the invalid UTF-8 case. */
const BODY_MARKER = "a\u0000b";

function resolveSchema(schema: JsonSchema | undefined, document: OpenApiDocument): JsonSchema | undefined {
  if (!schema?.$ref) return schema;
  return document.components?.schemas?.[schema.$ref.replace("#/components/schemas/", "")];
}

/**
 * A body shaped as the schema asks, with BODY_MARKER in every free string: enums and numbers keep
 * valid values, so the hostile strings are what reach the service (and, unparsed, the database).
 */
function hostileValue(raw: JsonSchema | undefined, document: OpenApiDocument, depth = 0): unknown {
  const schema = resolveSchema(raw, document);
  if (!schema || depth > 6) return BODY_MARKER;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const branch = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (branch) return hostileValue(branch.find((option) => resolveSchema(option, document)?.type !== "null") ?? branch[0], document, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((option) => option !== "null") : schema.type;
  if (type === "object" || schema.properties) {
    return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, value]) => [key, hostileValue(value, document, depth + 1)]));
  }
  if (type === "array") return [hostileValue(schema.items, document, depth + 1)];
  if (type === "integer" || type === "number") return 1;
  if (type === "boolean") return true;
  return BODY_MARKER;
}

interface Probe {
  label: string;
  method: string;
  url: string;
  body?: { raw: Uint8Array<ArrayBuffer>; contentType: string };
}

function jsonBodyBytes(value: unknown, kind: HostileKind): Uint8Array<ArrayBuffer> {
  const text = JSON.stringify(value);
  if (kind === "nul") return new Uint8Array(Buffer.from(text, "utf8"));
  // Invalid UTF-8 inside a JSON string: the escaped NUL becomes a lone 0xFF byte.
  const parts = text.split(JSON.stringify(BODY_MARKER).slice(1, -1)).map((part) => Buffer.from(part, "utf8"));
  const hostile = Buffer.from([0x61, 0xff, 0x62]);
  return new Uint8Array(Buffer.concat(parts.flatMap((part, index) => (index === 0 ? [part] : [hostile, part]))));
}

/** Every probe of one route: a hostile value in each segment, in the query, and in each JSON body. */
function probesOf(route: Route, document: OpenApiDocument, world: World): Probe[] {
  const names = paramNames(route.pattern);
  const valid = Object.fromEntries(names.map((name) => [name, validSegment(route.pattern, name, world)]));
  const item = route.kind === "route" ? document.paths[openApiPath(route.pattern)] : undefined;
  const methods: Method[] = route.kind === "page" ? ["get"] : METHODS.filter((method) => item?.[method]);
  const probes: Probe[] = [];
  for (const method of methods) {
    const operation = item?.[method];
    for (const [kind, segment] of Object.entries(HOSTILE_SEGMENTS) as Array<[HostileKind, string]>) {
      for (const name of names) {
        probes.push({ label: `${kind} in [${name}]`, method: method.toUpperCase(), url: fillPattern(route.pattern, { ...valid, [name]: segment }) });
      }
      // The query only on reads: a write with valid segments would change the world the other probes need.
      if (method === "get") {
        const documented = [...(item?.parameters ?? []), ...(operation?.parameters ?? [])].filter((p) => p.in === "query").map((p) => p.name);
        const query = [...new Set([...documented, ...COMMON_QUERY_NAMES])].map((name) => `${name}=${segment}`).join("&");
        probes.push({ label: `${kind} in the query`, method: "GET", url: `${fillPattern(route.pattern, valid)}?${query}` });
      }
      const content = operation?.requestBody?.content ?? {};
      const json = content["application/json"];
      if (json) {
        const body = jsonBodyBytes(hostileValue(json.schema, document), kind);
        probes.push({ label: `${kind} in the JSON body`, method: method.toUpperCase(), url: fillPattern(route.pattern, valid), body: { raw: body, contentType: "application/json" } });
      }
      const form = content["application/x-www-form-urlencoded"];
      if (form) {
        const fields = resolveSchema(form.schema, document)?.properties ?? {};
        const names = Object.keys(fields).length > 0 ? Object.keys(fields) : ["email", "password", "csrfToken", "name"];
        const encoded = names.map((field) => `${field}=${segment}`).join("&");
        const url = route.pattern === "/api/auth/[...nextauth]" ? "/api/auth/callback/credentials" : fillPattern(route.pattern, valid);
        probes.push({ label: `${kind} in the form body`, method: method.toUpperCase(), url, body: { raw: new Uint8Array(Buffer.from(encoded)), contentType: "application/x-www-form-urlencoded" } });
      }
    }
  }
  return probes;
}

let db: Kysely<Database>;
let world: World;
let document: OpenApiDocument;
let clients: Array<{ name: string; client: () => TestClient }>;

beforeAll(async () => {
  db = openTestDatabase({ dataDirectory: inject("dataDirectory"), databaseUrl: inject("databaseUrl") || undefined });
  const admin = await signedInAdmin();
  const uploaded = await uploadCorpusFile(admin, "exif-samples/jpg/Canon_40D.jpg");
  expect((await admin.request(`/api/photos/${uploaded.id}`, { method: "PATCH", body: { json: { visibility: "public" } } })).status).toBe(200);
  const photo = await waitForProcessing(admin, uploaded.id);
  const tagName = `probe-${randomBytes(4).toString("hex")}`;
  expect((await admin.request(`/api/photos/${photo.id}/tags`, { method: "PUT", body: { json: { names: [tagName] } } })).status).toBe(200);
  const tag = await db.selectFrom("tags").select(["id", "name"]).where("name", "=", tagName).executeTakeFirstOrThrow();
  const albumResponse = await admin.request("/api/albums", { body: { json: { title: `Probe ${tagName}`, visibility: "public" } } });
  expect(albumResponse.status).toBe(201);
  const { album } = (await albumResponse.json()) as { album: { id: string; slug: string } };
  await admin.request(`/api/albums/${album.id}/photos`, { body: { json: { photoIds: [photo.id] } } });
  const variant = await db.selectFrom("photo_variants").select("storage_key").where("photo_id", "=", photo.id).executeTakeFirstOrThrow();
  const adminRow = await db.selectFrom("users").select("id").where("email", "=", "admin@example.test").executeTakeFirstOrThrow();
  const now = new Date().toISOString();
  const shareId = crypto.randomUUID();
  const shareKey = randomBytes(18).toString("base64url");
  await db
    .insertInto("shares")
    .values({ id: shareId, key: shareKey, owner_id: adminRow.id, title: "Probe", download: "original", allow_zip: 1, allow_picks: 1, created_at: now, updated_at: now })
    .execute();
  await db.insertInto("share_photos").values({ share_id: shareId, photo_id: photo.id, position: 0 }).execute();
  const user = await createTestUser(admin, "viewer");
  const token = await createApiToken(admin, ["photos:read"]);
  world = {
    photoId: photo.id,
    variantPath: photo.variants[0].url.replace(/^\/media\//, ""),
    storageKey: variant.storage_key,
    albumId: album.id,
    albumSlug: album.slug,
    tagId: tag.id,
    tagName,
    shareId,
    shareKey,
    userId: user.id,
    tokenId: token.token.id,
  };
  document = (await (await new TestClient().request("/api/openapi.json")).json()) as OpenApiDocument;

  // A share visitor admitted the way a person is: the page's "View photos" form posts for its grant.
  const visitor = new TestClient();
  const entered = await enterShareLink(visitor, shareKey);
  expect(entered.status, "the probe's share admits a visitor").toBeLessThan(400);
  expect(visitor.cookies.size, "the visitor holds a grant").toBeGreaterThan(0);
  clients = [
    { name: "anonymous", client: () => new TestClient() },
    { name: "admin", client: () => admin },
    { name: "share visitor", client: () => visitor },
  ];
}, 240_000);

afterAll(async () => {
  await db?.destroy();
});

const BATCH = 6;

describe("SECURITY 58: NUL and invalid UTF-8 in every id, slug, key, query and body value", () => {
  const routes = listRoutes();

  it("finds the routes and pages (the walk itself works)", () => {
    const patterns = routes.map((route) => route.pattern);
    for (const expected of ["/p/[id]", "/albums/[slug]/feed.xml", "/s/[key]/media/[...storageKey]", "/media/[...key]", "/api/photos/[id]", "/tags/[tag]"]) {
      expect(patterns).toContain(expected);
    }
  });

  it.each(["anonymous", "admin", "share visitor"])("as %s: no route answers 5xx", async (clientName) => {
    const client = clients.find((candidate) => candidate.name === clientName)!.client();
    const probes = routes.flatMap((route) => probesOf(route, document, world).map((probe) => ({ ...probe, pattern: route.pattern })));
    // Reads first, writes after: a write that slips through cannot take the world away from a read.
    probes.sort((a, b) => Number(a.method !== "GET") - Number(b.method !== "GET"));
    expect(probes.length).toBeGreaterThan(100);
    const failures: string[] = [];
    for (let start = 0; start < probes.length; start += BATCH) {
      await Promise.all(
        probes.slice(start, start + BATCH).map(async (probe) => {
          const response = await client.request(probe.url, { method: probe.method, ...(probe.body ? { body: probe.body } : {}) });
          await response.arrayBuffer().catch(() => undefined);
          if (response.status >= 500) failures.push(`${response.status} ${probe.method} ${probe.pattern} (${probe.label}): ${probe.url}`);
        }),
      );
    }
    expect(failures.sort().join("\n")).toBe("");
  }, 600_000);
});
