import { describe, expect, it } from "vitest";
import { isApiTokenExpired, LAST_USED_RESOLUTION_MS, shouldRecordApiTokenUse, toExpiresAt } from "./api-token-validity";

const now = new Date("2026-11-22T12:00:00.000Z");
const at = (offsetMs: number) => new Date(now.getTime() + offsetMs).toISOString();

describe("API token validity", () => {
  it("expires at the expiry instant, never when there is none", () => {
    expect(isApiTokenExpired(null, now)).toBe(false);
    expect(isApiTokenExpired(at(1), now)).toBe(false);
    expect(isApiTokenExpired(at(0), now)).toBe(true);
    expect(isApiTokenExpired(at(-1), now)).toBe(true);
  });

  it("computes the expiry from days, or none", () => {
    expect(toExpiresAt(now, null)).toBeNull();
    expect(toExpiresAt(now, 30)).toBe("2026-12-22T12:00:00.000Z");
  });

  it("records a use when never used or last recorded over a minute ago, not on every request", () => {
    expect(shouldRecordApiTokenUse(null, now)).toBe(true);
    expect(shouldRecordApiTokenUse(at(-LAST_USED_RESOLUTION_MS - 1), now)).toBe(true);
    expect(shouldRecordApiTokenUse(at(-LAST_USED_RESOLUTION_MS + 1000), now)).toBe(false);
    expect(shouldRecordApiTokenUse(at(-1), now)).toBe(false);
  });
});
