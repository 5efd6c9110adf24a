import { describe, expect, it } from "vitest";
import { shareState } from "./share-state";

const now = new Date("2026-11-24T12:00:00Z");
const open = { revoked_at: null, expires_at: null, max_views: null, view_count: 0 };

describe("shareState", () => {
  it("is active without expiry or limit", () => {
    expect(shareState(open, now)).toBe("active");
  });

  it("expires at the expiry instant, not after", () => {
    expect(shareState({ ...open, expires_at: "2026-11-24T12:00:01Z" }, now)).toBe("active");
    expect(shareState({ ...open, expires_at: "2026-11-24T12:00:00Z" }, now)).toBe("expired");
  });

  it("is used up once the views reach the limit", () => {
    expect(shareState({ ...open, max_views: 3, view_count: 2 }, now)).toBe("active");
    expect(shareState({ ...open, max_views: 3, view_count: 3 }, now)).toBe("used_up");
  });

  it("says revoked before expired before used up", () => {
    const everything = { revoked_at: "2026-11-01T00:00:00Z", expires_at: "2026-11-02T00:00:00Z", max_views: 1, view_count: 1 };
    expect(shareState(everything, now)).toBe("revoked");
    expect(shareState({ ...everything, revoked_at: null }, now)).toBe("expired");
  });
});
