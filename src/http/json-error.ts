import { ERROR_STATUS, type ErrorCode } from "@/src/errors/app-error";

/** The one JSON error shape every API answers with. */
export interface ErrorBody {
  error: { code: ErrorCode; message: string; issues?: Array<{ path: string; message: string }> };
}

export function jsonError(code: ErrorCode, message: string, headers: Record<string, string> = {}): Response {
  const body: ErrorBody = { error: { code, message } };
  return Response.json(body, { status: ERROR_STATUS[code], headers: { "Cache-Control": "no-store", ...headers } });
}
