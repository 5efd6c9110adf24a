import { getEnv } from "@/src/config/env";
import { normalizeEmail } from "@/src/users/normalize-email";
import { FixedWindowLimiter } from "./fixed-window-limiter";

interface SignInLimiters {
  byAccount: FixedWindowLimiter;
  byAddress: FixedWindowLimiter;
}

const globalState = globalThis as typeof globalThis & { __contactSheetSignInLimiters?: SignInLimiters };

function getLimiters(): SignInLimiters {
  if (!globalState.__contactSheetSignInLimiters) {
    const env = getEnv();
    const windowMs = env.SIGNIN_WINDOW_SECONDS * 1000;
    globalState.__contactSheetSignInLimiters = {
      byAccount: new FixedWindowLimiter(env.SIGNIN_MAX_FAILURES_PER_ACCOUNT, windowMs),
      byAddress: new FixedWindowLimiter(env.SIGNIN_MAX_FAILURES_PER_IP, windowMs),
    };
  }
  return globalState.__contactSheetSignInLimiters;
}

/**
 * Seconds until this address or this account may try a password again (0: go ahead). Counted by
 * the e-mail as typed, whether or not an account has it, so known and unknown accounts answer alike.
 */
export function getSignInRetryAfter(address: string, email: string): number {
  const { byAccount, byAddress } = getLimiters();
  return Math.max(byAddress.retryAfterSeconds(address), byAccount.retryAfterSeconds(normalizeEmail(email)));
}

export function recordFailedSignIn(address: string, email: string): void {
  const { byAccount, byAddress } = getLimiters();
  byAddress.hit(address);
  byAccount.hit(normalizeEmail(email));
}

export function recordSuccessfulSignIn(email: string): void {
  getLimiters().byAccount.reset(normalizeEmail(email));
}
