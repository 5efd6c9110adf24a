import { describe, expect, inject, it } from "vitest";
import { TEST_ADMIN } from "./setup/global-setup";
import { signedInAdmin, signedInAs, TestClient } from "./helpers/test-client";

type Caller = "visitor" | "viewer" | "editor" | "admin";

async function clientFor(caller: Caller): Promise<TestClient> {
  if (caller === "visitor") return new TestClient();
  if (caller === "admin") return signedInAdmin();
  return (await signedInAs(caller)).client;
}

async function errorCode(response: Response): Promise<string> {
  return ((await response.json()) as { error: { code: string } }).error.code;
}

describe("the guarded path groups (PRODUCT.md's table)", () => {
  const apiCases: Array<[string, Caller, number]> = [
    ["/api/photos", "visitor", 401],
    ["/api/photos", "viewer", 200],
    ["/api/upload", "visitor", 401],
    ["/api/upload", "viewer", 403],
    ["/api/upload", "editor", 200],
    ["/api/admin/users", "visitor", 401],
    ["/api/admin/users", "viewer", 403],
    ["/api/admin/users", "editor", 403],
    ["/api/admin/users", "admin", 200],
  ];
  it.each(apiCases)("GET %s as %s answers %i with JSON", async (path, caller, status) => {
    const response = await (await clientFor(caller)).request(path);
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toContain("application/json");
    if (status === 401) expect(await errorCode(response)).toBe("UNAUTHENTICATED");
    if (status === 403) expect(await errorCode(response)).toBe("FORBIDDEN");
  });

  const pageCases: Array<[string, Caller, number]> = [
    ["/admin", "visitor", 307],
    ["/admin", "viewer", 403],
    ["/admin", "editor", 200],
    ["/admin/users", "visitor", 307],
    ["/admin/users", "editor", 403],
    ["/admin/users", "admin", 200],
  ];
  it.each(pageCases)("GET %s as %s answers %i", async (path, caller, status) => {
    const response = await (await clientFor(caller)).request(path);
    expect(response.status).toBe(status);
    if (status === 307) expect(response.headers.get("location")).toContain(`/signin?callbackUrl=${encodeURIComponent(path)}`);
    if (status === 403) expect(await response.text()).toContain("Your role does not allow this page.");
  });

  it("shows the admin's users table only to an admin", async () => {
    const html = await (await (await signedInAdmin()).request("/admin/users")).text();
    expect(html).toContain(TEST_ADMIN.email);
  });
});

describe("proxy bypass attempts still meet each handler's own check (42)", () => {
  const subrequestHeaders = [
    "middleware:middleware:middleware:middleware:middleware",
    "src/middleware:src/middleware:src/middleware:src/middleware:src/middleware",
    "proxy:proxy:proxy:proxy:proxy",
    "src/proxy:src/proxy:src/proxy:src/proxy:src/proxy",
  ];

  it.each(subrequestHeaders)("x-middleware-subrequest: %s", async (header) => {
    for (const caller of ["visitor", "viewer"] as const) {
      const client = await clientFor(caller);
      const api = await client.request("/api/admin/users", { headers: { "x-middleware-subrequest": header } });
      expect(api.status).toBe(caller === "visitor" ? 401 : 403);
      const page = await client.request("/admin/users", { headers: { "x-middleware-subrequest": header } });
      expect(page.status).toBe(caller === "visitor" ? 307 : 403);
      expect(await page.text()).not.toContain(TEST_ADMIN.email);
    }
  });

  const pathVariants = [
    "/admin.rsc",
    "/admin/users.rsc",
    "/admin/users.segments/admin/users/__PAGE__.segment.rsc",
    "/admin.segments/admin/__PAGE__.segment.rsc",
    "/admin/users?nxtPslug=users",
    "/admin%252Fusers",
    "/admin/users/",
    "/ADMIN/users",
    "/Admin/Users",
    "/_next/data/development/admin/users.json",
    "/api/admin/users/",
    "/api%252Fadmin%252Fusers",
    "/API/ADMIN/USERS",
    "/api/admin/users?nxtPid=x",
  ];

  it.each(pathVariants)("%s never shows admin data to a visitor or a viewer", async (path) => {
    for (const caller of ["visitor", "viewer"] as const) {
      const client = await clientFor(caller);
      const headerSets: Array<Record<string, string>> = [
        {},
        { RSC: "1" },
        { RSC: "1", "Next-Router-Prefetch": "1", "Next-Router-Segment-Prefetch": "/admin/users/__PAGE__" },
      ];
      for (const headers of headerSets) {
        const response = await client.request(path, { headers });
        expect([307, 308, 401, 403, 404]).toContain(response.status);
        expect(await response.text()).not.toContain(TEST_ADMIN.email);
      }
    }
  });
});

describe("cross-site writes with a session cookie (35)", () => {
  const crossSite: Array<[string, Record<string, string>, string | null]> = [
    ["another origin", {}, "https://evil.example"],
    ["Origin: null", {}, "null"],
    ["no Origin, Sec-Fetch-Site: cross-site", { "Sec-Fetch-Site": "cross-site" }, null],
    ["no Origin, Sec-Fetch-Site: same-site", { "Sec-Fetch-Site": "same-site" }, null],
  ];

  it.each(crossSite)("refuses %s with 403 and changes nothing", async (_label, headers, origin) => {
    const admin = await signedInAdmin();
    const email = `cross-site-${Date.now()}@example.test`;
    const response = await admin.request("/api/admin/users", {
      body: { json: { email, name: "Mallory", role: "admin", password: "password-long-enough" } },
      headers,
      origin,
    });
    expect(response.status).toBe(403);
    expect(await errorCode(response)).toBe("FORBIDDEN");
    const list = (await (await admin.request("/api/admin/users")).json()) as { users: Array<{ email: string }> };
    expect(list.users.map((user) => user.email)).not.toContain(email);
  });

  it("accepts the same write from our own origin", async () => {
    const admin = await signedInAdmin();
    const response = await admin.request("/api/admin/users", {
      body: { json: { email: `same-site-${Date.now()}@example.test`, name: "Sam", role: "viewer", password: "password-long-enough" } },
    });
    expect(response.status).toBe(201);
  });
});

describe("hostile callbackUrl values land on our own origin (36)", () => {
  const origin = inject("baseUrl");
  const hostile = [
    "https://evil.example",
    "//evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "http://[::1",
    "%",
    "https://127.0.0.1.evil.example/",
    // Paths that resolve to "//host": dot segments, encoded dots and slashes, backslashes,
    // tabs and newlines, and our own origin followed by such a path.
    "/.//evil.example",
    "/..//evil.example",
    "/%2e//evil.example",
    "/%2E%2E//evil.example",
    "/%2f%2fevil.example",
    "/%5cevil.example",
    "/%252f%252fevil.example",
    "/%255c%255cevil.example",
    "/.\\/evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/.\r\n//evil.example",
    `${origin}//evil.example`,
    `${origin}/.//evil.example`,
    `${origin}/%2e%2e//evil.example`,
    `${origin}/%2f/evil.example`,
  ];

  /** A redirect target is safe when it is absolute, on our origin, and its path names no other host. */
  function expectOnOurOrigin(target: string): void {
    const url = new URL(target);
    expect(url.origin).toBe(origin);
    expect(url.pathname).not.toMatch(/^[/\\]{2}/);
    expect(decodeTwice(url.pathname)).not.toMatch(/^[/\\]{2}/);
  }

  function decodeTwice(path: string): string {
    try {
      return decodeURIComponent(decodeURIComponent(path));
    } catch {
      // Not percent-encoding at all ("/%"): nothing hidden in it.
      return path;
    }
  }

  /** The target the sign-in form will go to after signing in, as the page hands it to the form. */
  function formTarget(html: string): string {
    const match = /\\"callback(?:Url|Path)\\":\\"([^"\\]*)\\"/.exec(html);
    if (!match) throw new Error("The sign-in page handed no callback to its form");
    return match[1];
  }

  it.each(hostile)("%j", async (callbackUrl) => {
    const client = new TestClient();
    const page = await client.request(`/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`);
    expect(page.status).toBe(200);
    expectOnOurOrigin(formTarget(await page.text()));

    const signIn = await client.request(`/api/auth/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`);
    expect(signIn.status).toBe(302);
    const location = new URL(signIn.headers.get("location") ?? "", client.baseUrl);
    expect(location.origin).toBe(client.baseUrl);
    const kept = location.searchParams.get("callbackUrl");
    if (kept) expectOnOurOrigin(new URL(kept, client.baseUrl).toString());

    // next-auth's answer to the sign-in: its redirect callback decides the URL.
    const credentials = await client.request("/api/auth/callback/credentials", {
      body: { form: { email: TEST_ADMIN.email, password: TEST_ADMIN.password, csrfToken: await client.getCsrfToken(), json: "true", callbackUrl } },
    });
    expect(credentials.status).toBe(200);
    const { url } = (await credentials.json()) as { url: string };
    expectOnOurOrigin(url);

    // Signed in now: the sign-in page redirects at once, to an absolute URL on our origin.
    const signedIn = await client.request(`/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`);
    expect(signedIn.status).toBe(307);
    expectOnOurOrigin(signedIn.headers.get("location") ?? "");
  });
});

describe("password guessing (37)", () => {
  async function failedSignIn(client: TestClient, email: string): Promise<Response> {
    return client.signIn(email, "wrong-password-guess");
  }

  it("answers 429 after 20 failures from one address, whichever accounts it tries", async () => {
    const attacker = new TestClient();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 21; attempt += 1) {
      statuses.push((await failedSignIn(attacker, `guess-${attempt}-${Date.now()}@example.test`)).status);
    }
    expect(statuses.slice(0, 20).every((status) => status === 401)).toBe(true);
    expect(statuses[20]).toBe(429);
    // Even the right password is refused from that address until the window passes.
    const right = await attacker.signIn(TEST_ADMIN.email, TEST_ADMIN.password);
    expect(right.status).toBe(429);
    expect(attacker.sessionToken).toBeUndefined();
  });
});

describe("oversized and numerous cookies (38)", () => {
  it("answers 431 to a 20 kB cookie and keeps serving", async () => {
    const response = await new TestClient().request("/api/photos", { headers: { Cookie: `big=${"x".repeat(20_000)}` } });
    expect(response.status).toBe(431);
    expect((await new TestClient().request("/api/health")).status).toBe(200);
  });

  it("handles hundreds of cookies and junk session chunks without a 500", async () => {
    const many = Array.from({ length: 300 }, (_, index) => `c${index}=v`).join("; ");
    expect((await new TestClient().request("/api/photos", { headers: { Cookie: many } })).status).toBe(401);
    const junkChunks = Array.from({ length: 100 }, (_, index) => `next-auth.session-token.${index}=junk${index}`).join("; ");
    const response = await new TestClient().request("/api/photos", { headers: { Cookie: junkChunks } });
    expect(response.status).toBe(401);
    const session = await new TestClient().request("/api/auth/session", { headers: { Cookie: junkChunks } });
    expect(session.status).toBe(200);
    expect(await session.json()).toEqual({});
  });
});

describe("POST /api/auth/_log (39)", () => {
  it("takes next-auth's client report as a form post", async () => {
    const response = await new TestClient().request("/api/auth/_log", {
      body: { form: { level: "error", code: "CLIENT_FETCH_ERROR", message: "fetch failed", client: "true" } },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({});
  });

  it.each(["info", "constructor", "__proto__", "toString", "", "ERROR"])("refuses level %j", async (level) => {
    const response = await new TestClient().request("/api/auth/_log", { body: { form: { level, code: "X" } } });
    expect(response.status).toBe(400);
  });

  it("survives odd bodies: huge, JSON arrays, nested objects, control characters", async () => {
    const client = new TestClient();
    const huge = await client.request("/api/auth/_log", { body: { form: { level: "warn", code: "X", details: "y".repeat(200_000) } } });
    expect(huge.status).toBe(200);
    const array = await client.request("/api/auth/_log", { body: { raw: "[1,2,3]", contentType: "application/json" } });
    expect(array.status).toBe(400);
    const nested = await client.request("/api/auth/_log", {
      body: { json: { level: "debug", code: "NESTED", deep: { a: { b: { c: "d" } } }, crlf: "line\r\nforged: entry" } },
    });
    expect(nested.status).toBe(200);
    expect((await client.request("/api/health")).status).toBe(200);
  });

  it("rate-limits a flood from one address", async () => {
    const client = new TestClient();
    const statuses: number[] = [];
    for (let index = 0; index < 35; index += 1) {
      statuses.push((await client.request("/api/auth/_log", { body: { form: { level: "error", code: `FLOOD_${index}` } } })).status);
    }
    expect(statuses.slice(0, 30).every((status) => status === 200)).toBe(true);
    expect(statuses.slice(30).every((status) => status === 429)).toBe(true);
  });
});

describe("a non-admin asking for more (41)", () => {
  it("refuses a viewer or editor creating an admin, or promoting themselves", async () => {
    for (const role of ["viewer", "editor"] as const) {
      const { client, user } = await signedInAs(role);
      const create = await client.request("/api/admin/users", {
        body: { json: { email: `climber-${Date.now()}@example.test`, name: "Climber", role: "admin", password: "password-long-enough" } },
      });
      expect(create.status).toBe(403);
      const promote = await client.request(`/api/admin/users/${user.id}`, { method: "PATCH", body: { json: { role: "admin" } } });
      expect(promote.status).toBe(403);
      expect(await client.session()).toMatchObject({ user: { role } });
    }
  });

  it("refuses fields an admin API does not take, such as a session version or an id", async () => {
    const admin = await signedInAdmin();
    const response = await admin.request("/api/admin/users", {
      body: { json: { email: `extra-${Date.now()}@example.test`, name: "Extra", role: "viewer", password: "password-long-enough", id: "chosen", sessionVersion: 99 } },
    });
    expect(response.status).toBe(422);
  });
});
