import { withUser } from "@/src/http/api-handler";
import { AppError } from "@/src/errors/app-error";
import { jsonError } from "@/src/http/json-error";
import { handleTusRequest } from "@/src/uploads/tus-server";

const COLLECTION_METHODS = "POST, OPTIONS";
const UPLOAD_METHODS = "HEAD, PATCH, DELETE, OPTIONS";

// POST /api/upload/tus – create an upload; HEAD|PATCH|DELETE /api/upload/tus/{id} – its offset, its
// next bytes, its end (tus 1.0.0). The request that completes an upload answers with the photo.
const tus = withUser<{ path?: string[] }>(
  async ({ request, user, params }) => {
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
  },
  { role: "editor", scope: "upload" },
);

export const POST = tus;
export const HEAD = tus;
export const PATCH = tus;
export const DELETE = tus;
export const OPTIONS = tus;

const methodNotAllowed = async () =>
  jsonError("METHOD_NOT_ALLOWED", "The tus endpoint accepts POST, HEAD, PATCH, DELETE and OPTIONS.", { Allow: `POST, ${UPLOAD_METHODS}` });
export const GET = methodNotAllowed;
export const PUT = methodNotAllowed;
