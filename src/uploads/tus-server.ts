import "server-only";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { Server } from "@tus/server";
import type { Upload } from "@tus/utils";
import type { SessionUser } from "@/src/access/viewer";
import { getEnv } from "@/src/config/env";
import { getDb } from "@/src/db/client";
import { AppError, ERROR_STATUS, type ErrorCode } from "@/src/errors/app-error";
import { toErrorResponse } from "@/src/http/error-response";
import { jsonError, SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS } from "@/src/http/json-error";
import { whileUploading } from "@/src/jobs/worker";
import { getLogger } from "@/src/log/logger";
import { getTemporaryDirectory } from "@/src/storage/temporary-files";
import { releaseAbandonedPendingUploads, releasePendingUpload, reservePendingUpload } from "./pending-uploads.service";
import { readReceivedFile } from "./received-file";
import { DatabaseLocker } from "./tus-database-locker";
import type { TusBackend } from "./tus-backend";
import { createTusFileBackend } from "./tus-file-backend";
import { createTusS3Backend } from "./tus-s3-backend";
import { ABANDONED_TUS_UPLOAD_MS } from "./tus-upload-expiry";
import { storeReceivedFiles } from "./upload.service";
import { processSingleton } from "@/src/config/process-singleton";

/** Where the tus endpoint is mounted (app/api/upload/tus/[[...path]]/route.ts). */
export const TUS_PATH = "/api/upload/tus";
/** The metadata key that records who created an upload; set by the server, never by the client. */
const OWNER_KEY = "ownerId";
// Uploads are named with 16 random bytes in hex; anything else in the path is no upload of ours.
const UPLOAD_ID_PATTERN = /^[0-9a-f]{32}$/;
const EXPIRY_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** What the tus hooks (which only see the request) and the route share about one request. */
interface TusRequestState {
  /** Who sent it. */
  user: SessionUser;
  /** The store's id of the upload this request created, once onUploadCreate has reserved it. */
  createdUploadId?: string;
}

interface TusState {
  backend: TusBackend;
  server: Server;
  requests: WeakMap<Request, TusRequestState>;
  expiryTimer?: NodeJS.Timeout;
}

export function getTusDirectory(): string {
  return path.join(getTemporaryDirectory(), "tus");
}

/**
 * Local disk by default, one instance's own; with STORAGE=s3 the media bucket, so every app
 * instance sees every upload, with the lock in the database.
 */
function createTusBackend(): TusBackend {
  const env = getEnv();
  if (env.STORAGE !== "s3") return createTusFileBackend(getTusDirectory());
  const backend = createTusS3Backend({
    endpoint: env.S3_ENDPOINT ?? "",
    region: env.S3_REGION,
    bucket: env.S3_BUCKET,
    accessKeyId: env.S3_ACCESS_KEY_ID ?? "",
    secretAccessKey: env.S3_SECRET_ACCESS_KEY ?? "",
    localDirectory: getTemporaryDirectory(),
    expirationMs: ABANDONED_TUS_UPLOAD_MS,
  });
  // Any instance may take an upload's next request, so the lock lives in the database.
  return { ...backend, locker: new DatabaseLocker({ getDb }) };
}

// Process-wide, like the storage: Next.js bundles this module once for start-up and once per
// route, and the hooks must find callers registered by whichever copy handles the request.
function getTusState(): TusState {
  return processSingleton("tus", () => {
    const backend = createTusBackend();
    const prefix = backend.keyPrefix;
    const requests = new WeakMap<Request, TusRequestState>();
    const server = new Server({
      path: TUS_PATH,
      datastore: backend.datastore,
      locker: backend.locker,
      // The path carries the bare id; the store's key has the backend's prefix in front.
      namingFunction: () => `${prefix}${randomBytes(16).toString("hex")}`,
      getFileIdFromRequest: (_request, lastPath) => (lastPath && UPLOAD_ID_PATTERN.test(lastPath) ? `${prefix}${lastPath}` : undefined),
      // The Location of a new upload is built from our own path, never from a Host header.
      generateUrl: (_request, { path: basePath, id }) => `${basePath}/${id.slice(prefix.length)}`,
      maxSize: () => getEnv().MAX_UPLOAD_BYTES,
      onUploadCreate: async (request, upload) => {
        const state = getRequestState(requests, request);
        // A photo has bytes and a known size; refused here, before anything is stored.
        if (upload.sizeIsDeferred) throw { status_code: 400, body: "Declare the file's size in Upload-Length." };
        if (upload.size === 0) throw { status_code: 400, body: "The file is empty." };
        // The room it declares is the user's from now on (429 past the cap, 413 past the quota).
        await reservePendingUpload(getDb(), state.user, upload.id, upload.size ?? 0);
        state.createdUploadId = upload.id;
        return { metadata: { ...upload.metadata, [OWNER_KEY]: state.user.id } };
      },
      onUploadFinish: (request, upload) => finishUpload(backend, getRequestState(requests, request).user, upload, request.method),
      // tus would answer a thrown Error with 500 and its message; ours are logged and answered
      // without detail (or as 503 when a dependency or the store is down), like every other handler's.
      onResponseError: async (_request, error) => {
        if (!(error instanceof Error)) return undefined;
        const response = toErrorResponse(backend.toStoreError(error));
        return { status_code: response.status, body: await response.text() };
      },
    });
    return { backend, server, requests };
  });
}

function getRequestState(requests: WeakMap<Request, TusRequestState>, request: Request): TusRequestState {
  const state = requests.get(request);
  // Unreachable through the route (it always registers the caller); refuse rather than guess.
  if (!state) throw { status_code: 401, body: "Sign in to continue." };
  return state;
}

/**
 * Answers one tus request from a signed-in editor. An upload id in the path must name an upload this
 * user created: any other (another user's, expired, malformed) answers 404 before tus sees it.
 * Errors come back in the app's JSON shape where the status is one of ours.
 */
export async function handleTusRequest(user: SessionUser, request: Request, uploadId: string | null): Promise<Response> {
  const { backend, server, requests } = getTusState();
  if (uploadId !== null) await assertOwnUpload(backend, user, uploadId);
  const state: TusRequestState = { user };
  requests.set(request, state);
  try {
    return await whileUploading(async () => {
      const response = await server.handleWeb(request);
      await settleReservation(backend, request.method, state, uploadId, response.status);
      return toJsonError(response);
    });
  } finally {
    requests.delete(request);
  }
}

/**
 * Only a genuine "no such upload" (or another user's) is 404; a store that cannot answer throws
 * SERVICE_UNAVAILABLE (503), so the uploader keeps its Retry for a file the server still has.
 */
async function assertOwnUpload(backend: TusBackend, user: SessionUser, uploadId: string): Promise<void> {
  const notFound = new AppError("NOT_FOUND", "There is no such upload; it may have finished or expired.", { "Tus-Resumable": "1.0.0" });
  if (!UPLOAD_ID_PATTERN.test(uploadId)) throw notFound;
  const metadata = await backend.findUploadMetadata(`${backend.keyPrefix}${uploadId}`);
  if (metadata?.[OWNER_KEY] !== user.id) throw notFound;
}

/**
 * After tus has answered: a deleted upload frees its reservation, and a creating POST that did not
 * succeed (its body longer than Upload-Length, a dropped connection, a store error) leaves nothing
 * behind: its client never learnt the upload's address, so nobody could resume it. (A finished
 * upload frees its own in finishUpload.)
 */
async function settleReservation(backend: TusBackend, method: string, state: TusRequestState, uploadId: string | null, status: number): Promise<void> {
  if (method === "DELETE" && uploadId !== null && status === 204) {
    await releaseReservation(`${backend.keyPrefix}${uploadId}`);
  } else if (method === "POST" && state.createdUploadId && status !== 200 && status !== 201) {
    // The reservation first: should the store fail to remove the upload, its files still expire.
    await releaseReservation(state.createdUploadId);
    await backend.removeUpload(state.createdUploadId);
  }
}

/**
 * Frees an upload's reservation. A failure (database down) is logged rather than answered: the
 * upload itself is already finished or gone, and the expiry sweep frees a row whose upload has gone.
 */
async function releaseReservation(uploadId: string): Promise<void> {
  await releasePendingUpload(getDb(), uploadId).catch((error: unknown) =>
    getLogger().error({ err: error, uploadId }, "freeing an upload's reservation failed; the expiry sweep frees it later"),
  );
}

/**
 * Runs when the last byte has arrived: hashes and sniffs the file, stores it as a photo (or finds
 * the one with the same bytes), then removes the tus upload whatever the outcome, so a refused file
 * leaves nothing behind. The answer carries the outcome as JSON for the uploader: 200 (201 when the
 * whole file came with the creating POST) with `{ photo }`, or the refusal's status and error.
 */
async function finishUpload(
  backend: TusBackend,
  user: SessionUser,
  upload: Upload,
  method: string,
): Promise<{ status_code: number; headers: Record<string, string>; body: string }> {
  let finished: { filePath: string; release(): Promise<void> } | null = null;
  try {
    finished = await backend.openFinishedUpload(upload);
    const file = await readReceivedFile(finished.filePath, upload.metadata?.filename ?? "");
    if (file.size === 0) throw new AppError("BAD_REQUEST", "The file is empty.");
    const [photo] = await storeReceivedFiles(getDb(), user, [file], upload.id);
    return {
      status_code: method === "POST" ? 201 : 200,
      headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
      body: JSON.stringify({ photo }),
    };
  } catch (error) {
    const response = toErrorResponse(error);
    return { status_code: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
  } finally {
    await finished?.release();
    await backend.removeUpload(upload.id);
    await releaseReservation(upload.id);
  }
}

const CODE_BY_STATUS = new Map<number, ErrorCode>(Object.entries(ERROR_STATUS).map(([code, status]) => [status, code as ErrorCode]));

/**
 * tus answers errors as plain text; ours are JSON. A body that already is our error shape (from
 * onResponseError) is labelled as JSON. The tus headers (Tus-Resumable, Upload-Offset) are kept.
 */
async function toJsonError(response: Response): Promise<Response> {
  const code = CODE_BY_STATUS.get(response.status);
  if (response.status < 400 || !code || response.headers.get("content-type")?.includes("json")) return response;
  const text = (await response.text()).trim();
  // A body of ours came through onResponseError, which carries no headers: a 503's Retry-After is put back here.
  const retryAfter: Record<string, string> = response.status === 503 ? { "Retry-After": SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS } : {};
  const answer = isErrorBody(text)
    ? new Response(text, { status: response.status, headers: { "Content-Type": "application/json", "Cache-Control": "no-store", ...retryAfter } })
    : jsonError(code, text || "The upload request was refused.");
  for (const [name, value] of response.headers) {
    if (name !== "content-length" && name !== "content-type") answer.headers.set(name, value);
  }
  return answer;
}

function isErrorBody(text: string): boolean {
  try {
    return typeof (JSON.parse(text) as { error?: { code?: unknown } }).error?.code === "string";
  } catch {
    return false;
  }
}

/**
 * Removes abandoned uploads now and then every hour (see ABANDONED_TUS_UPLOAD_MS), and frees what
 * they reserved of their owners' room. Called once at start-up; the timer does not keep the
 * process alive.
 */
export function startTusUploadExpiry(): void {
  const state = getTusState();
  if (state.expiryTimer) return;
  const { backend } = state;
  const sweep = () =>
    backend
      .removeAbandonedUploads(ABANDONED_TUS_UPLOAD_MS)
      .then((count) => count > 0 && getLogger().info({ count }, "removed abandoned tus uploads"))
      .then(() => releaseAbandonedPendingUploads(getDb(), ABANDONED_TUS_UPLOAD_MS, async (id) => (await backend.findUploadMetadata(id)) !== null))
      .then((count) => count > 0 && getLogger().info({ count }, "freed the reservations of abandoned tus uploads"))
      .catch((error: unknown) => getLogger().error({ err: error }, "removing abandoned tus uploads failed"));
  void sweep();
  state.expiryTimer = setInterval(sweep, EXPIRY_SWEEP_INTERVAL_MS);
  state.expiryTimer.unref();
}
