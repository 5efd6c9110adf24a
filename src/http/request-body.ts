import type { z } from "zod";
import { AppError } from "@/src/errors/app-error";
import { findUnstorableText } from "@/src/validation/input-text";

const MAXIMUM_JSON_BYTES = 64 * 1024;

// Fatal: a body that is not UTF-8 is refused rather than read with U+FFFD in place of its bytes.
const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads a JSON body (at most 64 KiB) and validates it; Zod errors become 422 via toErrorResponse.
 * A body that is not UTF-8, or whose strings hold a NUL or a lone surrogate (`\u0000`, `\ud800`),
 * is a 400 before the schema runs: no database could store them (SECURITY.md 58).
 */
export async function parseJsonBody<Schema extends z.ZodType>(request: Request, schema: Schema): Promise<z.infer<Schema>> {
  const declaredLength = Number(request.headers.get("content-length") ?? "0");
  if (declaredLength > MAXIMUM_JSON_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", "The request body is too large.");
  const bytes = await request.arrayBuffer();
  if (bytes.byteLength > MAXIMUM_JSON_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", "The request body is too large.");
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new AppError("BAD_REQUEST", "The request body is not valid UTF-8.");
  }
  // No body at all where the route's body is optional (DELETE /api/trash empties all of it).
  if (text === "" && schema.safeParse(undefined).success) return undefined as z.infer<Schema>;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AppError("BAD_REQUEST", "The request body is not valid JSON.");
  }
  if (findUnstorableText(body) !== undefined) throw new AppError("BAD_REQUEST", "The request body holds a NUL character or a lone surrogate.");
  return schema.parse(body);
}
