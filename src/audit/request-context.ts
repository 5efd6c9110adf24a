import { AsyncLocalStorage } from "node:async_hooks";
import { processSingleton } from "@/src/config/process-singleton";

/** Where the request that is being answered came from: what the audit log records beside each change. */
export interface RequestOrigin {
  /** The client address by src/http/client-address.ts's rules (trusted proxies only), or "unknown". */
  address: string;
  /** The User-Agent header as sent (cut to a bounded length); null when there was none. */
  userAgent: string | null;
}

const MAX_USER_AGENT_LENGTH = 512;

/**
 * The request origin rides along the async call chain instead of being passed through every
 * service: the handler wrappers (src/http/api-handler.ts), the sign-in route and server actions
 * run their work inside `runWithRequestOrigin`, and `insertAuditEntry` reads it. Services keep
 * their signatures, and nothing below the wrapper reads headers.
 *
 * One store for the whole process, on globalThis: Next.js may bundle this module more than once
 * (route handlers, pages, next-auth), and each copy must see what the wrapper set.
 */
function storage(): AsyncLocalStorage<RequestOrigin> {
  return processSingleton("request-origin", () => new AsyncLocalStorage<RequestOrigin>());
}

export function toRequestOrigin(address: string, userAgent: string | null): RequestOrigin {
  return { address, userAgent: userAgent === null || userAgent === "" ? null : userAgent.slice(0, MAX_USER_AGENT_LENGTH) };
}

/** Runs `work` with this origin as the current request's, for every audit row it writes. */
export function runWithRequestOrigin<T>(origin: RequestOrigin, work: () => T): T {
  return storage().run(origin, work);
}

/** The current request's origin; undefined outside a request (jobs, startup, tests calling services). */
export function currentRequestOrigin(): RequestOrigin | undefined {
  return storage().getStore();
}
