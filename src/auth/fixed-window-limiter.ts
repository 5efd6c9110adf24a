/**
 * Counts events per key in fixed time windows, in this process's memory. Enough for one app
 * instance; several instances behind a load balancer each keep their own count.
 */
export class FixedWindowLimiter {
  private readonly windows = new Map<string, { count: number; resetsAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly maximumKeys = 100_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until `key` may try again, or 0 when it is under its limit. */
  retryAfterSeconds(key: string): number {
    const window = this.windows.get(key);
    if (!window || window.resetsAt <= this.now()) return 0;
    return window.count >= this.limit ? Math.ceil((window.resetsAt - this.now()) / 1000) : 0;
  }

  /** Counts one event for `key`. */
  hit(key: string): void {
    const now = this.now();
    const window = this.windows.get(key);
    if (window && window.resetsAt > now) {
      window.count += 1;
      return;
    }
    if (this.windows.size >= this.maximumKeys) this.dropExpired(now);
    this.windows.set(key, { count: 1, resetsAt: now + this.windowMs });
  }

  /** Counts one event and says whether `key` was already over its limit before it. */
  take(key: string): { isAllowed: boolean; retryAfterSeconds: number } {
    const retryAfterSeconds = this.retryAfterSeconds(key);
    if (retryAfterSeconds > 0) return { isAllowed: false, retryAfterSeconds };
    this.hit(key);
    return { isAllowed: true, retryAfterSeconds: 0 };
  }

  reset(key: string): void {
    this.windows.delete(key);
  }

  private dropExpired(now: number): void {
    for (const [key, window] of this.windows) {
      if (window.resetsAt <= now) this.windows.delete(key);
    }
    // Still full of live keys (a flood of distinct keys): forget the oldest rather than grow forever.
    for (const key of this.windows.keys()) {
      if (this.windows.size < this.maximumKeys) break;
      this.windows.delete(key);
    }
  }
}
