import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { uploadFiles, type UploadedPhoto } from "./helpers/photos";
import { signedInAs, TestClient } from "./helpers/test-client";

// SECURITY.md 53: a server action is a public POST endpoint. Called directly, with any body and any
// arguments, it answers 4xx or an empty answer, never 5xx, for visitors and signed-in users alike.

const MANIFEST = path.resolve(import.meta.dirname, "../.next/server/server-reference-manifest.json");

/** The action id the built app gave an exported action, as the client code sends it. */
function actionId(exportedName: string, fileEnding: string): string {
  const manifest = JSON.parse(fs.readFileSync(MANIFEST, "utf8")) as { node: Record<string, { exportedName: string; filename: string }> };
  const entry = Object.entries(manifest.node).find(([, action]) => action.exportedName === exportedName && action.filename.endsWith(fileEnding));
  if (!entry) throw new Error(`${exportedName} is not in ${MANIFEST}`);
  return entry[0];
}

const loadMorePhotosActionId = () => actionId("loadMorePhotos", "gallery-actions.tsx");
const loadViewerNeighboursActionId = () => actionId("loadViewerNeighbours", "viewer-neighbours.action.ts");

type ActionBody = { text: string; contentType?: string } | { form: FormData };

/** POSTs to a page (the gallery unless named) as React's client does for a server action call. */
function callAction(client: TestClient, body: ActionBody, id = loadMorePhotosActionId(), pagePath = "/"): Promise<Response> {
  const headers = { "Next-Action": id, Accept: "text/x-component" };
  if ("form" in body) return client.request(pagePath, { method: "POST", headers, body: { multipart: body.form } });
  return client.request(pagePath, { method: "POST", headers, body: { raw: body.text, contentType: body.contentType ?? "text/plain;charset=UTF-8" } });
}

function formOf(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}

const HUGE_CURSOR = "A".repeat(300 * 1024);

// The whole class: wrong types, missing and extra arguments, huge and undecodable cursors, bodies
// that are no reply at all, references to rows a one-row body does not have, and multipart forms.
const CRAFTED: Array<[string, ActionBody]> = [
  ["a number", { text: "[12345]" }],
  ["an object", { text: '[{"cursor":"x"}]' }],
  ["null", { text: "[null]" }],
  ["an array", { text: '[["x"]]' }],
  ["a boolean", { text: "[true]" }],
  ["no argument", { text: "[]" }],
  ["extra arguments", { text: '["eA","eB","eC"]' }],
  ["a 300 kB cursor", { text: JSON.stringify([HUGE_CURSOR]) }],
  ["a body over Next.js's 1 MB limit for actions", { text: JSON.stringify(["A".repeat(1_100_000)]) }],
  ["a cursor that is not base64", { text: '["!!!not base64!!!"]' }],
  ["a base64 cursor of nonsense", { text: JSON.stringify([Buffer.from("no separator").toString("base64url")]) }],
  ["a cursor of control characters", { text: JSON.stringify(["\u0000\u0001|\u0002"]) }],
  ["a base64 cursor of NUL characters", { text: JSON.stringify([Buffer.from("\u0000|\u0000").toString("base64url")]) }],
  ["a broken body", { text: "[[[" }],
  ["an empty body", { text: "" }],
  ["a body that is not JSON", { text: "hello" }],
  ["a bare number", { text: "12345" }],
  ["a bare string", { text: '"x"' }],
  ["an object for the argument list", { text: '{"0":"x","length":1}' }],
  ["deep nesting", { text: `${"[".repeat(50_000)}${"]".repeat(50_000)}` }],
  ["a JSON content type", { text: '["x"]', contentType: "application/json" }],
  ["no content type", { text: '["x"]', contentType: "" }],
  ["a reference to a missing Map row", { text: '["$Q1"]' }],
  ["a Map of the root itself", { text: '["$Q0"]' }],
  ["a promise reference", { text: '["$@1"]' }],
  ["a FormData reference", { text: '["$K1"]' }],
  ["a server reference", { text: '["$h1"]' }],
  ["an iterator reference", { text: '["$i1"]' }],
  ["an outlined row", { text: '["$1"]' }],
  ["a temporary reference", { text: '["$T"]' }],
  ["a form without the root field", { form: formOf({ a: "b" }) }],
  ["a form whose root is broken", { form: formOf({ 0: "[[[" }) }],
  ["a form whose argument is a number", { form: formOf({ 0: "[12345]" }) }],
  ["a form with a huge cursor", { form: formOf({ 0: JSON.stringify([HUGE_CURSOR]) }) }],
  ["a form over Next.js's 1 MB limit for actions", { form: formOf({ 0: '["x"]', 1: "A".repeat(1_100_000) }) }],
  ["a form whose root refers to a missing row", { form: formOf({ 0: '["$Q1"]' }) }],
  ["a form whose root refers to a row of the wrong kind", { form: formOf({ 0: '["$Q1"]', 1: "5" }) }],
  ["a form whose argument is FormData", { form: formOf({ 0: '["$K1"]', "1_cursor": "x" }) }],
  ["a form posing as a no-JavaScript form action", { form: formOf({ "1_$ACTION_ID_0000": "", 0: '["x"]' }) }],
];

describe("server actions called with crafted arguments (53)", () => {
  let editor: TestClient;
  let cursor: string;
  let secondPhotoId: string;

  beforeAll(async () => {
    // Two photos of the editor's own, so the gallery has a second page behind a real cursor.
    ({ client: editor } = await signedInAs("editor"));
    const ids: string[] = [];
    for (const colour of ["#224466", "#664422"]) {
      const bytes = new Uint8Array(await sharp({ create: { width: 40, height: 30, channels: 3, background: colour } }).jpeg().toBuffer());
      const response = await uploadFiles(editor, [{ bytes, name: `${colour}.jpg` }]);
      expect(response.status).toBe(201);
      ids.push(((await response.json()) as { photos: UploadedPhoto[] }).photos[0].id);
    }
    const listed = (await (await editor.request("/api/photos?owner=me&limit=1")).json()) as { photos: Array<{ id: string }>; nextCursor: string };
    cursor = listed.nextCursor;
    secondPhotoId = ids.find((id) => id !== listed.photos[0].id) ?? "";
  });

  it("still answers a genuine call with the next page", async () => {
    const response = await callAction(editor, { text: JSON.stringify([cursor]) });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/x-component");
    expect(await response.text()).toContain(`"id":"${secondPhotoId}"`);
  });

  for (const who of ["a visitor", "a signed-in editor"] as const) {
    it.each(CRAFTED)(`answers ${who} sending %s with 4xx or an empty answer, never 5xx`, async (_name, body) => {
      const client = who === "a visitor" ? new TestClient() : editor;
      const response = await callAction(client, body);
      const text = await response.text();
      expect(response.status, text.slice(0, 300)).toBeLessThan(500);
      if (response.status === 200) expect(text).not.toContain('"tiles":[{');
    });
  }

  it("answers an unknown action id with 4xx", async () => {
    const response = await callAction(new TestClient(), { text: '["x"]' }, "00".repeat(21));
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
  });

  it("still answers a genuine call afterwards", async () => {
    const response = await callAction(editor, { text: JSON.stringify([cursor]) });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(`"id":"${secondPhotoId}"`);
  });
});

describe("the full-screen viewer's neighbours action called with crafted arguments (53)", () => {
  let owner: TestClient;
  let ids: string[];
  const callViewerAction = (client: TestClient, body: ActionBody) => callAction(client, body, loadViewerNeighboursActionId(), `/p/${ids[0]}`);

  beforeAll(async () => {
    // Two private photos of the owner's: neighbours to the owner, nothing at all to anyone else.
    ({ client: owner } = await signedInAs("editor"));
    ids = [];
    for (const colour of ["#336699", "#996633"]) {
      const bytes = new Uint8Array(await sharp({ create: { width: 40, height: 30, channels: 3, background: colour } }).jpeg().toBuffer());
      const response = await uploadFiles(owner, [{ bytes, name: `${colour}.jpg` }]);
      expect(response.status).toBe(201);
      ids.push(((await response.json()) as { photos: UploadedPhoto[] }).photos[0].id);
    }
  });

  it("answers the owner's genuine call with the other photo, and a visitor's with no neighbours", async () => {
    const genuine = { text: JSON.stringify([ids[0]]) };
    await expect.poll(async () => (await (await callViewerAction(owner, genuine)).text()).includes(`"id":"${ids[1]}"`), { timeout: 30_000 }).toBe(true);
    const visitor = await callViewerAction(new TestClient(), genuine);
    expect(visitor.status).toBe(200);
    expect(await visitor.text()).not.toContain(ids[1]);
  });

  for (const who of ["a visitor", "the owner"] as const) {
    it.each(CRAFTED)(`answers ${who} sending %s with 4xx or no neighbours, never 5xx`, async (_name, body) => {
      const response = await callViewerAction(who === "a visitor" ? new TestClient() : owner, body);
      const text = await response.text();
      expect(response.status, text.slice(0, 300)).toBeLessThan(500);
      if (response.status === 200) expect(text).not.toContain(ids[1]);
    });
  }
});

// Every action the pages call, the page that calls it, and a call of the right shape (whose rows
// do not exist, so its honest answer is the empty one too).
const ACTIONS = [
  { name: "loadMorePhotos", file: "gallery-actions.tsx", page: "/", args: ["eA"] },
  { name: "loadMoreSearchResults", file: "search-actions.ts", page: "/search?q=a", args: ["a", "eA"] },
  { name: "loadMoreAlbumPhotos", file: "album-actions.ts", page: "/albums/none", args: ["none", "eA"] },
  { name: "loadMoreBrowsePhotos", file: "browse-actions.ts", page: "/cameras/none", args: ["camera", "none", "eA"] },
  { name: "loadMoreTagPhotos", file: "tag-actions.ts", page: "/tags/none", args: ["none", "eA"] },
  { name: "loadViewerNeighbours", file: "viewer-neighbours.action.ts", page: "/p/none", args: ["none"] },
  { name: "loadAlbumViewerNeighbours", file: "viewer-neighbours.action.ts", page: "/p/none", args: ["none", "none"] },
  { name: "loadViewerPosition", file: "viewer-details.action.ts", page: "/p/none", args: ["none"] },
  { name: "loadAlbumViewerPosition", file: "viewer-details.action.ts", page: "/p/none", args: ["none", "none"] },
  { name: "loadViewerPhotoInfo", file: "viewer-details.action.ts", page: "/p/none", args: ["none"] },
] as const;

// An action's empty answer as the reply carries it: no more tiles, no neighbours, or null (no count, no details).
const EMPTY_ANSWER = /\{"tiles":\[\],"nextCursor":null\}|\{"newer":\[\],"older":\[\]\}|^1:null$/m;

/** Crafted calls for an action of these arguments: each kind of bad input the wrapper refuses. */
function craftedCalls(args: readonly string[]): Array<[string, string]> {
  return [
    ["wrong types", JSON.stringify(args.map(() => 12345))],
    ["an object with unknown fields for each argument", JSON.stringify(args.map((arg) => ({ value: arg, unknown: true })))],
    ["an extra argument", JSON.stringify([...args, { unknown: true }])],
    ["a missing argument", JSON.stringify(args.slice(1))],
    ["a 1 MB string for the last argument", JSON.stringify([...args.slice(0, -1), "A".repeat(1_000_000)])],
    ["a NUL in every argument", JSON.stringify(args.map((arg) => `${arg}\u0000`))],
    ["empty strings", JSON.stringify(args.map(() => ""))],
    ["a broken body", "[[["],
  ];
}

describe("every server action answers crafted calls through its wrapper (53)", () => {
  for (const action of ACTIONS) {
    it.each(craftedCalls(action.args))(`${action.name} answers a visitor sending %s with 4xx or its empty answer`, async (_name, text) => {
      const response = await callAction(new TestClient(), { text }, actionId(action.name, action.file), action.page);
      const body = await response.text();
      expect(response.status, body.slice(0, 300)).toBeLessThan(500);
      if (response.status === 200) expect(body).toMatch(EMPTY_ANSWER);
    });
  }

  it("answers a signed-in user's well-formed call for rows that do not exist with the empty answer", async () => {
    const { client } = await signedInAs("editor");
    for (const action of ACTIONS) {
      const response = await callAction(client, { text: JSON.stringify(action.args) }, actionId(action.name, action.file), action.page);
      expect(response.status, action.name).toBe(200);
      expect(await response.text(), action.name).toMatch(EMPTY_ANSWER);
    }
  });
});

// SECURITY.md 62: Next.js refuses an action whose Origin is not the host it was asked for, but with a
// 500 and an error log; the interceptor answers 403 first. A POST from a page always has an Origin.
describe("server actions called from another origin, or from none (62)", () => {
  // An origin left out is the client's own.
  const ORIGINS: Array<[string, { origin?: string | null; headers?: Record<string, string> }]> = [
    ["a foreign Origin", { origin: "https://evil.example" }],
    ["Origin null (a sandboxed frame)", { origin: "null" }],
    ["no Origin", { origin: null }],
    ["our Origin with a foreign X-Forwarded-Host", { headers: { "X-Forwarded-Host": "evil.example" } }],
  ];

  for (const action of ACTIONS) {
    it.each(ORIGINS)(`${action.name} answers %s with 403`, async (_name, { origin, headers }) => {
      const response = await new TestClient().request(action.page, {
        method: "POST",
        origin,
        headers: { "Next-Action": actionId(action.name, action.file), Accept: "text/x-component", ...headers },
        body: { raw: JSON.stringify(action.args), contentType: "text/plain;charset=UTF-8" },
      });
      expect(response.status, (await response.text()).slice(0, 300)).toBe(403);
    });
  }

  it("answers a signed-in user's call from a foreign Origin with 403 too, and from our own with 200", async () => {
    const { client } = await signedInAs("editor");
    const call = (origin: string) =>
      client.request("/", { method: "POST", origin, headers: { "Next-Action": loadMorePhotosActionId(), Accept: "text/x-component" }, body: { raw: '["eA"]', contentType: "text/plain;charset=UTF-8" } });
    expect((await call("https://evil.example")).status).toBe(403);
    expect((await call(client.baseUrl)).status).toBe(200);
  });
});
