import { z } from "zod";
import { ERROR_STATUS, type ErrorCode } from "@/src/errors/app-error";
import type { HandlerAccess, HandlerContract } from "../handler-contract";
import type { ErrorBody } from "../json-error";
import { schemaMatches } from "@/src/validation/schema-matches";

const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

/** The one error shape every API answers with (json-error.ts, error-response.ts). */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.enum(ERROR_CODES),
    message: z.string().describe("For people; may change. Match on `code`."),
    issues: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .optional()
      .describe("For INVALID_INPUT: each field that failed, dot-separated."),
  }),
});

schemaMatches<z.output<typeof errorBodySchema>, ErrorBody>(true);

const STATE_CHANGING_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * The errors an operation can answer, from what its wrapper does (authentication, role, the
 * same-origin check on cookie writes, input parsing) plus what the contract says the handler adds.
 * Any handler can meet an unexpected failure (500) or a busy database (503).
 */
export function listErrorCodes(method: string, access: HandlerAccess, contract: HandlerContract): ErrorCode[] {
  const codes = new Set<ErrorCode>();
  if (access.kind === "user") {
    codes.add("UNAUTHENTICATED").add("FORBIDDEN");
    // A token route refuses a request with both a cookie and a token, and slows a token guesser.
    if (access.scope) codes.add("BAD_REQUEST").add("RATE_LIMITED");
  }
  if (access.kind === "share") codes.add("UNAUTHENTICATED");
  // Every address is refused whole when it holds a NUL or invalid UTF-8 (SECURITY.md 58).
  codes.add("BAD_REQUEST");
  if (STATE_CHANGING_METHODS.has(method)) codes.add("FORBIDDEN");
  if (contract.params || contract.query) codes.add("INVALID_INPUT");
  if (contract.body) codes.add("BAD_REQUEST").add("PAYLOAD_TOO_LARGE").add("INVALID_INPUT");
  for (const code of contract.errors ?? []) codes.add(code);
  codes.add("INTERNAL").add("SERVICE_UNAVAILABLE");
  return [...codes];
}

/** Why an API answers each error code (each has its own status), in words for the reference. */
export const ERROR_STATUS_DESCRIPTIONS: Record<ErrorCode, string> = {
  BAD_REQUEST: "The request is malformed (not JSON, a NUL or invalid UTF-8 anywhere, a bad cursor, a cookie and a token together).",
  UNAUTHENTICATED: "Not signed in, or the token is unknown, revoked, expired or its owner disabled.",
  FORBIDDEN: "Signed in, but the role or token scope does not allow this, or a cross-site write.",
  NOT_FOUND: "There is no such thing, or the caller may not see it.",
  METHOD_NOT_ALLOWED: "The path does not take this method (see Allow).",
  CONFLICT: "The change clashes with the current state.",
  PAYLOAD_TOO_LARGE: "The body, a file, or the caller's quota is too large.",
  UNSUPPORTED_MEDIA_TYPE: "The file is not one of the accepted image types.",
  INVALID_INPUT: "A field, parameter or file failed validation; `issues` lists the fields.",
  RATE_LIMITED: "Too many attempts; see Retry-After.",
  REQUEST_HEADER_FIELDS_TOO_LARGE: "The request headers are too large.",
  INTERNAL: "Something went wrong on the server; nothing about it is answered.",
  NOT_IMPLEMENTED: "The server does not serve what was asked for in this form (oEmbed's format=xml).",
  SERVICE_UNAVAILABLE: "The database or storage is busy or down; retry shortly (Retry-After).",
  INSUFFICIENT_STORAGE: "The server's disk is full; nothing was kept.",
};
