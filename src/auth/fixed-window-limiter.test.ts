import { describe, expect, it } from "vitest";
import { FixedWindowLimiter } from "./fixed-window-limiter";

function limiterAt(limit: number, windowMs: number, maximumKeys = 100) {
  const clock = { now: 0 };
  return { clock, limiter: new FixedWindowLimiter(limit, windowMs, maximumKeys, () => clock.now) };
}

describe("FixedWindowLimiter", () => {
  it("allows `limit` events per window, then answers the seconds left", () => {
    const { clock, limiter } = limiterAt(3, 60_000);
    for (let index = 0; index < 3; index += 1) expect(limiter.take("a").isAllowed).toBe(true);
    clock.now = 15_000;
    expect(limiter.take("a")).toEqual({ isAllowed: false, retryAfterSeconds: 45 });
    expect(limiter.take("b").isAllowed).toBe(true);
  });

  it("opens again when the window has passed", () => {
    const { clock, limiter } = limiterAt(1, 1000);
    limiter.hit("a");
    expect(limiter.retryAfterSeconds("a")).toBe(1);
    clock.now = 1000;
    expect(limiter.retryAfterSeconds("a")).toBe(0);
  });

  it("forgets a key on reset", () => {
    const { limiter } = limiterAt(1, 1000);
    limiter.hit("a");
    limiter.reset("a");
    expect(limiter.retryAfterSeconds("a")).toBe(0);
  });

  it("stays bounded under a flood of distinct keys", () => {
    const { limiter } = limiterAt(1, 60_000, 10);
    for (let index = 0; index < 1000; index += 1) limiter.hit(`key-${index}`);
    expect(limiter.retryAfterSeconds("key-999")).toBeGreaterThan(0);
    expect(limiter.retryAfterSeconds("key-0")).toBe(0);
  });
});
