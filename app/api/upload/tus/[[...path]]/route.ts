import { z } from "zod";
import { methodNotAllowed, withUser } from "@/src/http/api-handler";
import type { AuthenticatedArguments, WithUserOptions } from "@/src/http/api-handler";
import { AppError } from "@/src/errors/app-error";
import { handleTusRequest } from "@/src/uploads/tus-server";

const COLLECTION_METHODS = "POST, OPTIONS";
const UPLOAD_METHODS = "HEAD, PATCH, DELETE, OPTIONS";

const tusParamsSchema = z.object({ path: z.array(z.string()).optional().describe("The upload's id: the last segment of the Location that creation answered.") });

// Every tus request names the protocol version it speaks.
const TUS_RESUMABLE = { "Tus-Resumable": "1.0.0 (required on every request but OPTIONS)" };

type TusOptions = WithUserOptions & { params: typeof tusParamsSchema };

// POST /api/upload/tus – create an upload; HEAD|PATCH|DELETE /api/upload/tus/{id} – its offset, its
// next bytes, its end (tus 1.0.0). The request that completes an upload answers with the photo.
async function handleTus({ request, user, params }: AuthenticatedArguments<TusOptions>): Promise<Response> {
  const segments = params.path ?? [];
  if (segments.length > 1) throw new AppError("NOT_FOUND", "There is no such upload.");
  const uploadId = segments[0] ?? null;
  if (request.method === "OPTIONS") return handleTusRequest(user, request, null);
  if (uploadId === null && request.method !== "POST") {
    throw new AppError("METHOD_NOT_ALLOWED", "Create an upload with POST.", { Allow: COLLECTION_METHODS });
  }
  if (uploadId !== null && request.method === "POST") {
    throw new AppError("METHOD_NOT_ALLOWED", "An upload takes HEAD, PATCH and DELETE.", { Allow: UPLOAD_METHODS });
  }
  return handleTusRequest(user, request, uploadId);
}

/** One handler for every tus method; each export carries what the API reference says of it. */
function tus(contract: Omit<TusOptions, "role" | "scope" | "params">) {
  return withUser(handleTus, { role: "editor", scope: "upload", params: tusParamsSchema, ...contract });
}

export const POST = tus({
  summary: "tus: create a resumable upload",
  description:
    'tus 1.0.0 creation (and creation-with-upload). The upload\'s URL is answered in `Location`; its id is the last path segment. When the whole file came with this request, the answer carries `{"photo": …}` as a completing PATCH does.',
  catchAll: "empty",
  requestHeaders: {
    ...TUS_RESUMABLE,
    "Upload-Length": "The file's size in bytes (counts against the quota from now on)",
    "Upload-Metadata": "Comma-separated `key base64value` pairs: `filename`, `filetype`",
  },
  rawBody: { contentType: "application/offset+octet-stream", description: "Optionally the first bytes of the file." },
  response: {
    status: 201,
    description: "The upload exists.",
    headers: { Location: "The upload's URL", "Upload-Offset": "Bytes received so far" },
  },
  errors: ["BAD_REQUEST", "PAYLOAD_TOO_LARGE", "RATE_LIMITED", "INSUFFICIENT_STORAGE"],
});

export const HEAD = tus({
  summary: "tus: how many bytes of an upload have arrived",
  catchAll: "filled",
  requestHeaders: TUS_RESUMABLE,
  response: { status: 200, description: "No body.", headers: { "Upload-Offset": "Bytes received so far", "Upload-Length": "The declared size" } },
  errors: ["NOT_FOUND"],
});

export const PATCH = tus({
  summary: "tus: send the next bytes of an upload",
  description: 'The request that completes the upload answers 200 with `{"photo": …}` (one upload outcome, as POST /api/upload gives) instead of 204, or the refusal (415, 422) with nothing kept.',
  catchAll: "filled",
  requestHeaders: { ...TUS_RESUMABLE, "Upload-Offset": "Where these bytes start (the current offset)" },
  rawBody: { contentType: "application/offset+octet-stream", description: "The next bytes of the file." },
  response: { status: 204, description: "The bytes are stored.", headers: { "Upload-Offset": "Bytes received so far" } },
  errors: ["BAD_REQUEST", "NOT_FOUND", "CONFLICT", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", "INVALID_INPUT", "INSUFFICIENT_STORAGE"],
});

export const DELETE = tus({
  summary: "tus: abandon an upload",
  catchAll: "filled",
  requestHeaders: TUS_RESUMABLE,
  response: { status: 204, description: "The upload and its bytes are gone." },
  errors: ["NOT_FOUND"],
});

export const OPTIONS = tus({
  summary: "tus: what the server supports",
  requestHeaders: {},
  response: {
    status: 204,
    description: "The protocol's capabilities.",
    headers: { "Tus-Version": "1.0.0", "Tus-Extension": "creation, creation-with-upload, termination, ...", "Tus-Max-Size": "MAX_UPLOAD_BYTES" },
  },
});

const refuse = methodNotAllowed("The tus endpoint accepts POST, HEAD, PATCH, DELETE and OPTIONS.", `POST, ${UPLOAD_METHODS}`);
export const GET = refuse;
export const PUT = refuse;
