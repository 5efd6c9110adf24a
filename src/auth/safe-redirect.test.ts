import { describe, expect, it } from "vitest";
import { toSafeRedirect, toSafeRedirectPath } from "./safe-redirect";

const BASE = "http://localhost:3000";

describe("toSafeRedirect", () => {
  it.each([
    ["/admin", "http://localhost:3000/admin"],
    ["/admin/users?tab=2#top", "http://localhost:3000/admin/users?tab=2#top"],
    ["http://localhost:3000/p/1", "http://localhost:3000/p/1"],
    ["admin", "http://localhost:3000/admin"],
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
    expect(toSafeRedirect(input, BASE)).toBe("http://localhost:3000/");
  });

  it("sends anything that is not a string home", () => {
    expect(toSafeRedirect(undefined, BASE)).toBe("http://localhost:3000/");
    expect(toSafeRedirect(["/a", "/b"], BASE)).toBe("http://localhost:3000/");
  });

  it("answers a path for in-app links", () => {
    expect(toSafeRedirectPath("/admin?x=1", BASE)).toBe("/admin?x=1");
    expect(toSafeRedirectPath("//evil.example/admin", BASE)).toBe("/");
  });
});
