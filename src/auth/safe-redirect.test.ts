import { describe, expect, it } from "vitest";
import { toSafeRedirect } from "./safe-redirect";

const BASE = "http://localhost:3000";
const HOME = "http://localhost:3000/";

describe("toSafeRedirect", () => {
  it.each([
    ["/admin", "http://localhost:3000/admin"],
    ["/admin/users?tab=2#top", "http://localhost:3000/admin/users?tab=2#top"],
    ["http://localhost:3000/p/1", "http://localhost:3000/p/1"],
    ["admin", "http://localhost:3000/admin"],
    // Dot segments that stay on one path are fine: they resolve to an ordinary path.
    ["/a/../admin", "http://localhost:3000/admin"],
    ["/./admin", "http://localhost:3000/admin"],
    ["/admin?next=//evil.example", "http://localhost:3000/admin?next=//evil.example"],
    // Encoded characters in an ordinary path are left as they are.
    ["/albums/summer%20trip", "http://localhost:3000/albums/summer%20trip"],
    ["/p/100%25", "http://localhost:3000/p/100%25"],
    ["/a/%2f/b", "http://localhost:3000/a/%2f/b"],
    ["/caf%C3%A9", "http://localhost:3000/caf%C3%A9"],
  ])("keeps %s on our origin", (input, expected) => {
    expect(toSafeRedirect(input, BASE)).toBe(expected);
  });

  it.each([
    "https://evil.example",
    "//evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "/\t/evil.example",
    "javascript:alert(1)",
    "data:text/html,hi",
    "http://localhost:3001/",
    "https://localhost:3000/",
    "http://[::1",
    "",
    "x".repeat(5000),
  ])("sends %j home", (input) => {
    expect(toSafeRedirect(input, BASE)).toBe(HOME);
  });

  // SECURITY.md 36: a path that resolves to "//host" (or "/\host") is another host to a browser,
  // however it was spelled on the way in.
  const hostilePaths = [
    // dot segments
    "/.//evil.example",
    "/..//evil.example",
    "/a/..//evil.example",
    "/./.././/evil.example",
    ".//evil.example",
    "..//evil.example",
    // encoded dots
    "/%2e//evil.example",
    "/%2E%2E//evil.example",
    "/%2e%2e/%2e//evil.example",
    "/.%2e//evil.example",
    // encoded slashes and backslashes, once or twice
    "/%2f/evil.example",
    "/%2F%2Fevil.example",
    "%2f%2fevil.example",
    "/%5cevil.example",
    "/%5C%5Cevil.example",
    "%5c%5cevil.example",
    "/%252f%252fevil.example",
    "/%25252f/evil.example",
    "/%255cevil.example",
    // backslashes, tabs, newlines, other controls, spaces
    "/.\\/evil.example",
    "/\\/evil.example",
    "\\/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "/.\t//evil.example",
    "\t//evil.example",
    " //evil.example",
    "/\u0000/evil.example",
    // our own origin, followed by such a path
    "http://localhost:3000//evil.example",
    "http://localhost:3000/.//evil.example",
    "http://localhost:3000/..//evil.example",
    "http://localhost:3000/%2e//evil.example",
    "http://localhost:3000/%2f/evil.example",
    "http://localhost:3000/%5cevil.example",
    "http://localhost:3000/\\/evil.example",
    "http://localhost:3000/\t/evil.example",
    "http://localhost:3000/%252f/evil.example",
  ];

  it.each(hostilePaths)("sends %j home, never to a path that starts with // or /\\", (input) => {
    expect(toSafeRedirect(input, BASE)).toBe(HOME);
  });

  it("never answers a path a browser would read as another host, for any of them", () => {
    for (const input of hostilePaths) {
      const path = new URL(toSafeRedirect(input, BASE)).pathname;
      expect(path).not.toMatch(/^[/\\]{2}/);
      expect(decodeURIComponent(decodeURIComponent(path))).not.toMatch(/^[/\\]{2}/);
    }
  });

  it("sends anything that is not a string home", () => {
    expect(toSafeRedirect(undefined, BASE)).toBe(HOME);
    expect(toSafeRedirect(["/a", "/b"], BASE)).toBe(HOME);
  });
});
