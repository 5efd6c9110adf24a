import { FixedWindowLimiter } from "./fixed-window-limiter";

// Secrets are 256-bit random, so this is not what stops guessing; it stops one address from
// flooding the token lookup with garbage. Generous enough for a script retrying a revoked token.
const MAXIMUM_FAILURES_PER_ADDRESS = 20;
const WINDOW_MS = 5 * 60 * 1000;

const globalState = globalThis as typeof globalThis & { __contactSheetApiTokenLimiter?: FixedWindowLimiter };

/** Failed API-token attempts per client address, one counter per process (like sign-in's). */
export function getApiTokenFailureLimiter(): FixedWindowLimiter {
  globalState.__contactSheetApiTokenLimiter ??= new FixedWindowLimiter(MAXIMUM_FAILURES_PER_ADDRESS, WINDOW_MS);
  return globalState.__contactSheetApiTokenLimiter;
}
