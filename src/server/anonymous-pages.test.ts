// The visitor's page cache in front of a stand-in for Next.js on a real node:http server: what it
// keeps, what it must never keep, and that hostile variety (query strings, Accept-Encoding values)
// cannot grow it. The database gate is stubbed (it confirms, and counts how often it was asked) and
// the clock is the test's.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type AnonymousPages, createAnonymousPages } from "./anonymous-pages";

let renders = 0;
/** What the stand-in for Next.js answers next. */
let nextAnswer: { status: number; headers: Record<string, string> } = { status: 200, headers: {} };
let pages: AnonymousPages;
let clockMs = 0;
let confirmations = 0;
/** Set to make the next confirmation find the access version moved (it drops every copy, as the real gate does). */
let versionMoved = false;
let server: http.Server;
let baseUrl: string;

function renderLikeNext(response: http.ServerResponse): void {
  renders += 1;
  response.statusCode = nextAnswer.status;
  response.setHeader("Content-Type", "text/html; charset=utf-8");
  for (const [name, value] of Object.entries(nextAnswer.headers)) response.setHeader(name, value);
  response.write(`<html><body>render ${renders}`);
  response.end("</body></html>");
}

beforeAll(async () => {
  const confirmNow = () => {
    confirmations += 1;
    if (versionMoved) pages.clear();
    versionMoved = false;
    return true;
  };
  pages = createAnonymousPages({ confirmNow, confirm: () => Promise.resolve() }, () => clockMs);
  server = http.createServer((request, response) => {
    if (!pages.respond(request, response, () => renderLikeNext(response))) renderLikeNext(response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  // Past every copy's lifetime and the last confirmation.
  clockMs += 60_000;
  confirmations = 0;
  versionMoved = false;
  pages.clear();
  renders = 0;
  nextAnswer = { status: 200, headers: {} };
});

async function get(path: string, headers: Record<string, string> = {}, method = "GET") {
  const response = await fetch(baseUrl + path, { method, headers });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

describe("the visitor's page cache", () => {
  it("keeps a visitor's / and answers it again from memory, GET and HEAD, with the shared Cache-Control", async () => {
    const first = await get("/");
    const second = await get("/");
    const head = await get("/", {}, "HEAD");
    expect(renders).toBe(1);
    expect(second.body).toBe(first.body);
    expect(second.headers.get("content-length")).toBe(String(Buffer.byteLength(first.body)));
    expect(second.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=30, stale-while-revalidate=60");
    expect(second.headers.get("vary")).toBe("Cookie");
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
  });

  it("never keeps or shares an answer for a session cookie, credentials, a client-side navigation or a server action", async () => {
    const requests: Array<Record<string, string>> = [
      { Cookie: "next-auth.session-token=forged" },
      { Cookie: "__Secure-next-auth.session-token.0=forged" },
      { Authorization: "Bearer cs_anything" },
      { RSC: "1" },
      { "Next-Action": "0123abcd" },
    ];
    for (const headers of requests) {
      const answer = await get("/", headers);
      expect(answer.headers.get("cache-control"), JSON.stringify(headers)).toBeNull();
    }
    await get("/", {}, "POST");
    expect(renders).toBe(6);
    // Nothing was kept by any of them: a visitor's first request renders.
    await get("/");
    expect(renders).toBe(7);
  });

  it("never keeps an answer that sets a cookie or is not a 200", async () => {
    nextAnswer = { status: 200, headers: { "Set-Cookie": "next-auth.csrf-token=x" } };
    await get("/");
    expect((await get("/")).headers.get("cache-control")).toBeNull();
    nextAnswer = { status: 500, headers: {} };
    await get("/");
    await get("/");
    expect(renders).toBe(4);
  });

  it("renders a query string afresh each time (shared, never kept), and leaves other pages alone", async () => {
    for (let index = 0; index < 5; index += 1) {
      const answer = await get(`/?utm_source=${index}`);
      expect(answer.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=30, stale-while-revalidate=60");
    }
    expect((await get("/p/abc")).headers.get("cache-control")).toBeNull();
    await get("/p/abc");
    expect(renders).toBe(7);
  });

  it("keeps at most a few copies however many Accept-Encoding values arrive", async () => {
    for (let index = 0; index < 50; index += 1) await get("/", { "Accept-Encoding": `x-made-up-${index}` });
    // Every value was new, so every request rendered; the copies were dropped as they passed the bound.
    expect(renders).toBe(50);
    await get("/", { "Accept-Encoding": "x-made-up-49" });
    expect(renders).toBe(50);
    await get("/", { "Accept-Encoding": "x-made-up-0" });
    expect(renders).toBe(51);
  });

  it("drops every copy when cleared, so the next visitor gets a new render", async () => {
    await get("/");
    pages.clear();
    expect((await get("/")).body).toContain("render 2");
  });

  it("reads the access version at most once a second, so another instance's change shows within that second", async () => {
    await get("/");
    await get("/");
    expect(confirmations).toBe(1);
    clockMs += 999;
    await get("/");
    expect(confirmations).toBe(1);
    clockMs += 2;
    await get("/");
    expect(confirmations).toBe(2);
    expect(renders).toBe(1);
  });

  it("drops the copy when a confirmation finds that something stopped being public elsewhere", async () => {
    await get("/");
    await get("/");
    versionMoved = true;
    // Inside the second the copy is still answered; the next confirmation drops it.
    expect((await get("/")).body).toContain("render 1");
    clockMs += 1_001;
    expect((await get("/")).body).toContain("render 2");
    expect(confirmations).toBe(2);
  });

  it("keeps a copy for ten seconds at most, confirmed or not", async () => {
    await get("/");
    clockMs += 9_999;
    expect((await get("/")).body).toContain("render 1");
    clockMs += 2;
    expect((await get("/")).body).toContain("render 2");
  });
});
