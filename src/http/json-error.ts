import { ERROR_STATUS, type ErrorCode } from "@/src/errors/app-error";

/** The one JSON error shape every API answers with. */
export interface ErrorBody {
  error: { code: ErrorCode; message: string; issues?: Array<{ path: string; message: string }> };
}

/** Seconds a 503 asks the client to wait before trying again (the database or the store away, every connection busy). */
export const SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS = "5";

export function jsonError(code: ErrorCode, message: string, headers: Record<string, string> = {}): Response {
  const body: ErrorBody = { error: { code, message } };
  // Every 503 says when to come back, whoever threw it (the store's errors carried no header): a
  // client or balancer backs off instead of hammering, and it is how bench:load tells the designed
  // answer of a dependency down or a full pool from a bug's.
  const retryAfter: Record<string, string> = code === "SERVICE_UNAVAILABLE" ? { "Retry-After": SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS } : {};
  return Response.json(body, { status: ERROR_STATUS[code], headers: { "Cache-Control": "no-store", ...retryAfter, ...headers } });
}
