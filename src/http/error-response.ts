import { ZodError } from "zod";
import { getLogger } from "@/src/log/logger";
import { AppError } from "@/src/errors/app-error";
import { isDatabaseUnavailable, isRefusedValue } from "@/src/db/errors";
import { type ErrorBody, jsonError } from "./json-error";


/**
 * Turns any thrown value into the one JSON error shape. AppErrors answer with their code, Zod errors
 * with 422 and the failing fields, and anything else is logged in full and answered as INTERNAL
 * without detail.
 */
export function toErrorResponse(error: unknown): Response {
  if (error instanceof AppError) return jsonError(error.code, error.message, error.headers);
  if (error instanceof ZodError) {
    const body: ErrorBody = {
      error: {
        code: "INVALID_INPUT",
        message: error.issues[0]?.message ?? "The request is not valid.",
        issues: error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message })),
      },
    };
    return Response.json(body, { status: 422, headers: { "Cache-Control": "no-store" } });
  }
  if (isDiskFull(error)) {
    getLogger().error({ err: error }, "disk full");
    return jsonError("INSUFFICIENT_STORAGE", "The server's disk is full; nothing was kept. Try again later.");
  }
  if (isRefusedValue(error)) {
    getLogger().warn({ err: error }, "the database refused a value the request sent");
    return jsonError("BAD_REQUEST", "The request holds a value the database cannot take.");
  }
  if (isDatabaseUnavailable(error)) {
    getLogger().warn({ err: error }, "dependency unavailable");
    return jsonError("SERVICE_UNAVAILABLE", "The service is busy or a dependency is down. Try again shortly.", { "Retry-After": "5" });
  }
  getLogger().error({ err: error }, "unhandled error in API handler");
  return jsonError("INTERNAL", "Something went wrong on our side.");
}

/** A write that found no room (ENOSPC, or a quota: EDQUOT), wherever it happened. */
function isDiskFull(error: unknown): boolean {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === "ENOSPC" || code === "EDQUOT";
}
