import type { z } from "zod";
import type { Role } from "@/src/access/roles";
import type { ApiTokenScope } from "@/src/access/scopes";
import type { ErrorCode } from "@/src/errors/app-error";

/** What a route's dynamic segments arrive as before they are parsed. */
export type RawRouteParams = Record<string, string | string[] | undefined>;

/** The success answer of a handler, as the API reference shows it. */
export interface SuccessResponse {
  status: number;
  description: string;
  /** The JSON body; absent for answers without one (204) or with bytes (set `contentType`). */
  schema?: z.ZodType;
  /** For answers that are not JSON (image bytes, a file download, tus): their media type. */
  contentType?: string;
  /** Response headers worth knowing about, in words. */
  headers?: Record<string, string>;
}

/**
 * What a handler takes and gives, declared next to it: the wrapper parses `params`, `query` and
 * `body` before the handler runs, and the OpenAPI document is generated from all of it.
 */
export interface HandlerContract {
  /** One line for the API reference. */
  summary: string;
  /** More words, where the summary is not enough. */
  description?: string;
  /** The route's dynamic segments; a failure is a 422, like any invalid input. */
  params?: z.ZodType;
  /** The query string, as an object of its first values; a failure is a 422. */
  query?: z.ZodType;
  /** A JSON body, read as `parseJsonBody` reads it (400 not JSON, 413 over 64 KiB, 422 invalid). */
  body?: z.ZodType;
  /** A body the handler reads itself (multipart files, tus bytes): documented, not parsed here. */
  rawBody?: { contentType: string; description: string };
  /** Request headers that matter to this handler, in words (tus). */
  requestHeaders?: Record<string, string>;
  response: SuccessResponse;
  /** The errors the handler itself may answer, beyond those the wrapper and parsing give. */
  errors?: readonly ErrorCode[];
  /**
   * For an optional catch-all route (`[[...path]]`): whether this method is documented at the bare
   * path ("empty"), at the path with segments ("filled"), or at both (unset).
   */
  catchAll?: "empty" | "filled";
}

/** Who may call a handler, as the wrapper enforces it. */
export type HandlerAccess =
  | { kind: "public" }
  | { kind: "viewer" }
  | { kind: "user"; role: Role; scope?: ApiTokenScope }
  /** A share link's visitor: the grant cookie scoped to /s/[key] (src/shares/share-access.ts). */
  | { kind: "share" };

/** What the wrappers attach to every handler they make: the tests and the OpenAPI document read it. */
export type HandlerDescription =
  | { kind: "handler"; access: HandlerAccess; contract: HandlerContract }
  /** A 405 filler (routeMethods, tus) or routeMethods' OPTIONS: made by us, nothing to document. */
  | { kind: "method-not-allowed" | "options" };

// Symbol.for: Next.js may bundle this module more than once in one process; every copy shares the key.
const HANDLER_DESCRIPTION = Symbol.for("contact-sheet.handler-description");

export function attachDescription<Handler extends object>(handler: Handler, description: HandlerDescription): Handler {
  Object.defineProperty(handler, HANDLER_DESCRIPTION, { value: description, enumerable: false });
  return handler;
}

/** The description a wrapper attached, or null for a function no wrapper made. */
export function findHandlerDescription(handler: unknown): HandlerDescription | null {
  if (typeof handler !== "function") return null;
  const description = (handler as unknown as Record<symbol, unknown>)[HANDLER_DESCRIPTION];
  return (description as HandlerDescription | undefined) ?? null;
}

type OutputOf<Schema, Fallback> = Schema extends z.ZodType ? z.output<Schema> : Fallback;

/** What a handler receives once the wrapper has parsed its input. */
export interface ParsedInput<Contract extends HandlerContract> {
  params: OutputOf<Contract["params"], RawRouteParams>;
  query: OutputOf<Contract["query"], undefined>;
  body: OutputOf<Contract["body"], undefined>;
}
