// The site's API as the importer uses it: plain HTTP with the caller's Bearer token, nothing from the
// server's own modules (the command runs on a laptop against a site elsewhere). Every refusal
// becomes a SiteApiError carrying the server's own message, so the run can say it beside the file.
// `contact-sheet export` reads the site through the same class.
import type { ExportAlbum, ExportPhoto, ExportShare } from "@/src/export/export-api.schemas";

export class SiteApiError extends Error {
  constructor(
    message: string,
    /** The HTTP status, or 0 when the server did not answer. */
    readonly status: number,
  ) {
    super(message);
    this.name = "SiteApiError";
  }

  /** The server's JSON error (`{ error: { message } }`) with what the status means for the token. */
  static from(status: number, body: string, wwwAuthenticate: string | null): SiteApiError {
    let message = `HTTP ${status}`;
    try {
      const parsed = JSON.parse(body) as { error?: { message?: string } };
      if (parsed.error?.message) message = parsed.error.message;
    } catch {
      if (body.trim()) message = body.trim().slice(0, 200);
    }
    const scope = /scope="([^"]+)"/.exec(wwwAuthenticate ?? "")?.[1] ?? null;
    const explanation = explainStatus(status, scope);
    return new SiteApiError(explanation ? `${explanation} (${status}: ${message})` : `${message} (${status})`, status);
  }
}

export interface UploadLimits {
  uploaderId: string;
  maxFileBytes: number;
}

export interface KnownFile {
  sha256: string;
  photoId: string;
  trashed: boolean;
}

export interface SiteAlbum {
  id: string;
  title: string;
  parentId: string | null;
  canEdit: boolean;
}

/** What a status means for someone running the command, beyond the server's own sentence. */
function explainStatus(status: number, scope: string | null): string {
  if (status === 401) return "the token was refused (expired, revoked or mistyped): make a new one under Account › API tokens";
  if (status === 403) return scope ? `the token lacks the "${scope}" scope` : "the token may not do this";
  return "";
}

/** A share link as GET /api/shares answers it, the fields the importer compares (never its URL: that holds the key). */
export interface SiteShare {
  id: string;
  title: string;
  message: string;
  albumId: string | null;
  owner: { id: string };
  photoCount: number;
  hasPassword: boolean;
  download: string;
  allowZip: boolean;
  showExif: boolean;
  showLocation: boolean;
  allowPicks: boolean;
  pickLimit: number | null;
  maxViews: number | null;
  revokedAt: string | null;
}

export class SiteApi {
  readonly origin: string;

  constructor(
    siteUrl: string,
    private readonly token: string,
  ) {
    this.origin = new URL(siteUrl).origin;
  }

  get authorization(): Record<string, string> {
    return { Authorization: `Bearer ${this.token}` };
  }

  url(pathname: string): string {
    return new URL(pathname, this.origin).toString();
  }

  private async request<T>(method: string, pathname: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(this.url(pathname), {
        method,
        headers: { ...this.authorization, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(60_000),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new SiteApiError(`the site at ${this.origin} did not answer (${cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error))})`, 0);
    }
    const text = await response.text();
    if (!response.ok) throw SiteApiError.from(response.status, text, response.headers.get("www-authenticate"));
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** Who the token is and how large a file the site takes (needs the `upload` scope). */
  async uploadLimits(): Promise<UploadLimits> {
    const answer = await this.request<{ uploader: { id: string }; limits: { maxFileBytes: number } }>("GET", "/api/upload");
    return { uploaderId: answer.uploader.id, maxFileBytes: answer.limits.maxFileBytes };
  }

  /** Which of these hashes the caller already has (at most 500 per call). */
  async knownFiles(hashes: string[]): Promise<KnownFile[]> {
    return (await this.request<{ known: KnownFile[] }>("POST", "/api/upload/known", { sha256: hashes })).known;
  }

  async listAlbums(parentId: string | null): Promise<SiteAlbum[]> {
    const query = parentId === null ? "" : `?parentId=${encodeURIComponent(parentId)}`;
    return (await this.request<{ albums: SiteAlbum[] }>("GET", `/api/albums${query}`)).albums;
  }

  /** `more`: an exported album's description, visibility and sort, given when it is made. */
  async createAlbum(title: string, parentId: string | null, more: { description?: string; visibility?: string; sort?: string } = {}): Promise<SiteAlbum> {
    return (await this.request<{ album: SiteAlbum }>("POST", "/api/albums", { title, parentId, ...more })).album;
  }

  /** PATCH /api/albums/{id}: here, an exported album's cover once its photos are in. */
  async updateAlbum(albumId: string, change: Record<string, unknown>): Promise<void> {
    await this.request("PATCH", `/api/albums/${encodeURIComponent(albumId)}`, change);
  }

  /** One page of GET /api/export/photos (the caller's photos with every field; `all`: everyone's, admins only). */
  async exportPhotos(all: boolean, cursor: string | null): Promise<{ photos: ExportPhoto[]; nextCursor: string | null }> {
    const query = new URLSearchParams({ all: String(all), limit: "500", ...(cursor ? { cursor } : {}) });
    return this.request("GET", `/api/export/photos?${query}`);
  }

  async exportAlbums(all: boolean): Promise<ExportAlbum[]> {
    return (await this.request<{ albums: ExportAlbum[] }>("GET", `/api/export/albums?all=${all}`)).albums;
  }

  async exportShares(all: boolean): Promise<ExportShare[]> {
    return (await this.request<{ shares: ExportShare[] }>("GET", `/api/export/shares?all=${all}`)).shares;
  }

  /** The original's bytes as a stream (GET /api/photos/{id}/original); a refusal is thrown as SiteApiError. */
  async openOriginal(photoId: string): Promise<ReadableStream<Uint8Array>> {
    let response: Response;
    try {
      response = await fetch(this.url(`/api/photos/${encodeURIComponent(photoId)}/original`), { headers: this.authorization, signal: AbortSignal.timeout(60 * 60_000) });
    } catch (error) {
      throw new SiteApiError(`the site at ${this.origin} did not answer (${error instanceof Error ? error.message : String(error)})`, 0);
    }
    if (!response.ok || !response.body) throw SiteApiError.from(response.status, await response.text(), response.headers.get("www-authenticate"));
    return response.body;
  }

  async addPhotosToAlbum(albumId: string, photoIds: string[]): Promise<void> {
    await this.request("POST", `/api/albums/${encodeURIComponent(albumId)}/photos`, { photoIds });
  }

  async setVisibility(photoIds: string[], visibility: string): Promise<void> {
    await this.request("PATCH", "/api/photos", { photoIds, set: { visibility } });
  }

  async addTags(photoIds: string[], names: string[]): Promise<void> {
    await this.request("POST", "/api/tags/photos", { action: "add", photoIds, names });
  }

  /** PUT /api/photos/{id}/tags: exactly these tags ([] none), which also tells the site the file's own keywords are not to be added. */
  async setPhotoTags(photoId: string, names: string[]): Promise<void> {
    await this.request("PUT", `/api/photos/${encodeURIComponent(photoId)}/tags`, { names });
  }

  /** Every share link the caller manages (an admin's: everyone's), page by page. */
  async listShares(): Promise<SiteShare[]> {
    const shares: SiteShare[] = [];
    let cursor: string | null = null;
    do {
      const query = new URLSearchParams({ limit: "200", ...(cursor ? { cursor } : {}) });
      const page: { shares: SiteShare[]; nextCursor: string | null } = await this.request("GET", `/api/shares?${query}`);
      shares.push(...page.shares);
      cursor = page.nextCursor;
    } while (cursor !== null);
    return shares;
  }

  /** POST /api/shares; answers the new link's id only (its URL holds the key, which the importer never keeps). */
  async createShare(settings: Record<string, unknown>): Promise<{ id: string }> {
    return { id: (await this.request<{ share: { id: string } }>("POST", "/api/shares", settings)).share.id };
  }

  async updateShare(shareId: string, change: Record<string, unknown>): Promise<void> {
    await this.request("PATCH", `/api/shares/${encodeURIComponent(shareId)}`, change);
  }

  /** The photo editor's fields (PATCH /api/photos/{id}): title, caption, takenAt, location. */
  async updatePhoto(photoId: string, change: Record<string, unknown>): Promise<void> {
    await this.request("PATCH", `/api/photos/${encodeURIComponent(photoId)}`, change);
  }
}
