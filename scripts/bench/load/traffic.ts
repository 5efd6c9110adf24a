import type { Recorder } from "./recorder";

const TUS_ENDPOINT = "/api/upload/tus";
const TUS_HEADERS = { "Tus-Resumable": "1.0.0" };
/** What the upload page's Uppy waits between its retries of a failed chunk (@uppy/tus's retryDelays, in ms). */
const RETRY_DELAYS_MS = [0, 1000, 3000, 5000];
/** The longest any one request of the bench's clients may take, its body included. */
export const REQUEST_TIMEOUT_MS = 120_000;

/** A browser: its cookies, its own address (sent as X-Forwarded-For, which nginx passes on), its origin on writes. */
export class LoadClient {
  readonly cookies = new Map<string, string>();

  constructor(
    readonly baseUrl: string,
    readonly address: string,
  ) {}

  /** Another browser with this one's cookies (the same person in another tab, or a shared share grant). */
  copy(address: string): LoadClient {
    const other = new LoadClient(this.baseUrl, address);
    for (const [name, value] of this.cookies) other.cookies.set(name, value);
    return other;
  }

  /** One request, given up after `timeoutMs` (two minutes unless said: a browser's patience with a large upload). */
  async request(
    pathname: string,
    init: { method?: string; headers?: Record<string, string>; body?: string | Uint8Array<ArrayBuffer>; json?: unknown; form?: Record<string, string>; timeoutMs?: number } = {},
  ): Promise<Response> {
    const method = init.method ?? (init.body !== undefined || init.json !== undefined || init.form ? "POST" : "GET");
    const headers: Record<string, string> = { "X-Forwarded-For": this.address, ...init.headers };
    if (this.cookies.size > 0) headers.Cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    if (method !== "GET" && method !== "HEAD") headers.Origin = this.baseUrl;
    let body = init.body;
    if (init.json !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(init.json);
    } else if (init.form) {
      headers["Content-Type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(init.form).toString();
    }
    const response = await fetch(new URL(pathname, this.baseUrl), { method, headers, body, redirect: "manual", signal: AbortSignal.timeout(init.timeoutMs ?? REQUEST_TIMEOUT_MS) });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const separator = pair.indexOf("=");
      this.cookies.set(pair.slice(0, separator).trim(), pair.slice(separator + 1).trim());
    }
    return response;
  }

  async signIn(email: string, password: string): Promise<void> {
    const { csrfToken } = (await (await this.request("/api/auth/csrf")).json()) as { csrfToken: string };
    await this.request("/api/auth/callback/credentials", { form: { email, password, csrfToken, json: "true", callbackUrl: this.baseUrl } });
    if (!this.cookies.get("next-auth.session-token")) throw new Error(`Signing in as ${email} failed`);
  }
}

export interface UploadFile {
  name: string;
  type: string;
  bytes: Uint8Array<ArrayBuffer>;
}

/** An upload the server acknowledged (its final answer named the photo), or one it never did. */
export interface UploadOutcome {
  photoId: string | null;
  /** The tus upload's path, when one was created, to ask afterwards whether it is resumable. */
  uploadPath: string | null;
  /** The file, when it was never acknowledged: a person would press Retry. */
  file: UploadFile;
}

function metadataHeader(file: UploadFile): string {
  return [`filename ${Buffer.from(file.name).toString("base64")}`, `filetype ${Buffer.from(file.type).toString("base64")}`].join(",");
}

async function sleep(milliseconds: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, milliseconds));
}

/**
 * Uploads one file the way the upload page's Uppy does: create, PATCH (one chunk: the corpus files
 * are under 8 MiB), and on a failed PATCH ask the offset (HEAD) and resume after its retry delays.
 * An upload the server forgot (404 on HEAD: it removes a finished upload whatever the outcome) is
 * started again, as a person pressing Retry would. Gives up once `deadline` has passed.
 */
export async function uploadLikeThePage(client: LoadClient, recorder: Recorder, file: UploadFile, deadline: number): Promise<UploadOutcome> {
  let uploadPath: string | null = null;
  let attempt = 0;
  for (;;) {
    try {
      if (uploadPath === null) {
        const created = await recorder.time("tus create", () =>
          client.request(TUS_ENDPOINT, { method: "POST", headers: { ...TUS_HEADERS, "Upload-Length": String(file.bytes.length), "Upload-Metadata": metadataHeader(file) } }),
        );
        const location = created.headers.get("location");
        if (created.status !== 201 || !location) throw new Error(`create answered ${created.status}`);
        uploadPath = new URL(location, client.baseUrl).pathname;
      }
      const path = uploadPath;
      let offset = 0;
      if (attempt > 0) {
        const head = await recorder.time("tus head", () => client.request(path, { method: "HEAD", headers: TUS_HEADERS }));
        if (head.status === 404) {
          uploadPath = null;
          throw new Error("the server no longer has the upload");
        }
        if (head.status !== 200) throw new Error(`HEAD answered ${head.status}`);
        offset = Number(head.headers.get("upload-offset"));
      }
      const patched = await recorder.time("tus patch", () =>
        client.request(path, {
          method: "PATCH",
          headers: { ...TUS_HEADERS, "Upload-Offset": String(offset), "Content-Type": "application/offset+octet-stream" },
          body: file.bytes.slice(offset),
        }),
      );
      if (patched.status === 200 || patched.status === 201) {
        const { photo } = (await patched.json()) as { photo?: { id: string } };
        if (photo?.id) return { photoId: photo.id, uploadPath: path, file };
      }
      throw new Error(`PATCH answered ${patched.status}`);
    } catch {
      attempt += 1;
      if (Date.now() > deadline) return { photoId: null, uploadPath, file };
      await sleep(RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)]);
    }
  }
}

/** The readers' routes, each a name for the tables and a path (the media and share ones from the seed). */
export interface ReaderRoute {
  name: string;
  path: string;
  /** A share link's routes need the visitor's grant cookie. */
  needsShareGrant?: boolean;
}

/** One reader: a closed loop over `routes` (a random one each time) until `stopAt()`, asked before each request (a fault row ends its traffic once the site has recovered). */
export async function readUntil(visitor: LoadClient, shareVisitor: LoadClient, recorder: Recorder, routes: ReaderRoute[], stopAt: () => number): Promise<void> {
  while (Date.now() < stopAt()) {
    const route = routes[Math.floor(Math.random() * routes.length)];
    const client = route.needsShareGrant ? shareVisitor : visitor;
    try {
      await recorder.time(route.name, () => client.request(route.path));
    } catch {
      // Recorded as a network failure; a browser would show an error and the reader goes on.
      await sleep(200);
    }
  }
}
