import { describe, expect, it } from "vitest";
import { routePattern, UNMATCHED_ROUTE } from "./route-pattern";

describe("routePattern: a bounded label per route, never the URL", () => {
  it("puts each param's name back in place of its value", () => {
    expect(routePattern("/api/photos/0f5c2a1e-aaaa-bbbb-cccc-1234567890ab", { id: "0f5c2a1e-aaaa-bbbb-cccc-1234567890ab" })).toBe("/api/photos/[id]");
    expect(routePattern("/api/photos/abc/tags", { id: "abc" })).toBe("/api/photos/[id]/tags");
    expect(routePattern("/s/key123/media/variants/ab/x.webp", { key: "key123", path: ["variants", "ab", "x.webp"] })).toBe("/s/[key]/media/[...path]");
    expect(routePattern("/api/tags/merge", {})).toBe("/api/tags/merge");
    // Next.js hands a route without dynamic segments no params object.
    expect(routePattern("/api/health/ready", undefined)).toBe("/api/health/ready");
  });

  it("gives 1,000 distinct photo ids one label", () => {
    const labels = new Set<string>();
    for (let index = 0; index < 1000; index += 1) {
      const id = crypto.randomUUID();
      labels.add(routePattern(`/api/photos/${id}/download`, { id }));
    }
    expect([...labels]).toEqual(["/api/photos/[id]/download"]);
  });

  it("folds a catch-all's any number of segments into one", () => {
    const labels = new Set(["a", "a/b", "a/b/c/d.jpg"].map((key) => routePattern(`/media/${key}`, { key: key.split("/") })));
    expect([...labels]).toEqual(["/media/[...key]"]);
  });

  it("matches encoded values and a repeated value only once", () => {
    expect(routePattern("/api/tags/caf%C3%A9", { id: "café" })).toBe("/api/tags/[id]");
    expect(routePattern("/x/same/same", { a: "same", b: "same" })).toBe("/x/[a]/[b]");
  });

  it("answers one fixed label, not the path, when a param cannot be placed", () => {
    expect(routePattern("/api/photos/abc", { id: "other" })).toBe(UNMATCHED_ROUTE);
    expect(routePattern("/media/a/b", { key: ["x", "b"] })).toBe(UNMATCHED_ROUTE);
    expect(routePattern("/api/photos/%E0%A4%A", { id: "zzz" })).toBe(UNMATCHED_ROUTE);
  });
});
