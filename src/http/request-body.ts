import type { z } from "zod";
import { AppError } from "@/src/errors/app-error";

const MAXIMUM_JSON_BYTES = 64 * 1024;

/** Reads a JSON body (at most 64 KiB) and validates it; Zod errors become 422 via toErrorResponse. */
export async function parseJsonBody<Schema extends z.ZodType>(request: Request, schema: Schema): Promise<z.infer<Schema>> {
  const declaredLength = Number(request.headers.get("content-length") ?? "0");
  if (declaredLength > MAXIMUM_JSON_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", "The request body is too large.");
  const text = await request.text();
  if (text.length > MAXIMUM_JSON_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", "The request body is too large.");
  // No body at all where the route's body is optional (DELETE /api/trash empties all of it).
  if (text === "" && schema.safeParse(undefined).success) return undefined as z.infer<Schema>;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AppError("BAD_REQUEST", "The request body is not valid JSON.");
  }
  return schema.parse(body);
}
