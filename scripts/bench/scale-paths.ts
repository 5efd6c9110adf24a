// bench:scale – what is measured: every page and API a visitor, a member and an admin use, each
// built for one seeded database (its own ids, cursors and media keys).
import fs from "node:fs";
import path from "node:path";
import type { LoadRequest } from "./scale-load";
import type { SeededDatabase, SeededPhoto } from "./scale-seed";

export type Viewer = "visitor" | "member" | "admin";

export interface Sessions {
  member: string;
  admin: string;
}

export interface BenchPath {
  name: string;
  viewer: Viewer;
  /** The request for one seeded database; `check` looks at one answer before the load starts. */
  build: (seeded: SeededDatabase, baseUrl: string, sessions: Sessions) => { request: LoadRequest; check: (status: number, body: string) => string | null };
}

const PAGE_SIZE = 30;
// The gallery's "load more": the server action's id in this build.
const LOAD_MORE_ACTION_FILE = "app/(gallery)/gallery-actions.tsx";

/** The id Next.js gave the gallery's loadMorePhotos server action in the last build. */
export function findLoadMoreActionId(): string {
  const manifestPath = path.resolve(import.meta.dirname, "../../.next/server/server-reference-manifest.json");
  const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8")) as { node: Record<string, { exportedName?: string; filename?: string }> };
  const found = Object.entries(manifest.node).find(([, entry]) => entry.exportedName === "loadMorePhotos" && entry.filename === LOAD_MORE_ACTION_FILE);
  if (!found) throw new Error(`No loadMorePhotos action in ${manifestPath}`);
  return found[0];
}

/** The service's cursor: base64url of `${sort_at}|${id}` of the last photo shown. */
export function encodeCursor(photo: SeededPhoto): string {
  return Buffer.from(`${photo.sortAt}|${photo.id}`).toString("base64url");
}

/** The photos a visitor sees, in the gallery's order. */
export function visitorPhotos(seeded: SeededDatabase): SeededPhoto[] {
  return seeded.photos.filter((photo) => photo.visibility === "public" && photo.status === "ready");
}

/** The newest public photo: its grid-size WebP is the hot /media request. */
export function hotPhoto(seeded: SeededDatabase): SeededPhoto {
  return visitorPhotos(seeded)[0];
}

/** A public photo in the middle of the gallery: its page, and its largest JPEG for the cold /media request. */
export function middlePhoto(seeded: SeededDatabase): SeededPhoto {
  const photos = visitorPhotos(seeded);
  return photos[Math.floor(photos.length / 2)];
}

function mediaPath(photo: SeededPhoto, variant: string): string {
  const key = photo.variantKeys.get(variant);
  if (!key) throw new Error(`Photo ${photo.id} has no ${variant} variant`);
  return `/media/${photo.publicationKey}/${key}`;
}

const get = (pathname: string, headers: Record<string, string> = {}): LoadRequest => ({ method: "GET", path: pathname, headers });
const expectOk = (status: number) => (status >= 200 && status < 300 ? null : `answered ${status}`);
const expectText = (needle: string) => (status: number, body: string) => expectOk(status) ?? (body.includes(needle) ? null : `the answer does not name ${needle}`);

/** The rows of the table, in order. The baseline row (plain node:http) is added by scale.ts. */
export function listBenchPaths(loadMoreActionId: string): BenchPath[] {
  return [
    { name: "/", viewer: "visitor", build: (seeded) => ({ request: get("/"), check: expectText(hotPhoto(seeded).id) }) },
    {
      name: "/ load more (deep, server action)",
      viewer: "visitor",
      build: (seeded, baseUrl) => {
        // 95 % of the way down the visitor's gallery: the page after this cursor.
        const photos = visitorPhotos(seeded);
        const index = Math.floor(photos.length * 0.95);
        return {
          request: {
            method: "POST",
            path: "/",
            headers: { "Next-Action": loadMoreActionId, "Content-Type": "text/plain;charset=UTF-8", Accept: "text/x-component", Origin: baseUrl },
            body: JSON.stringify([encodeCursor(photos[index])]),
          },
          check: expectText(photos[index + 1].id),
        };
      },
    },
    { name: "/p/[id]", viewer: "visitor", build: (seeded) => ({ request: get(`/p/${middlePhoto(seeded).id}`), check: expectText(middlePhoto(seeded).id) }) },
    {
      name: "/media hot (400 px WebP)",
      viewer: "visitor",
      build: (seeded) => ({ request: get(mediaPath(hotPhoto(seeded), "webp-400")), check: expectOk }),
    },
    {
      name: "/media cold (Range, 3200 px JPEG)",
      viewer: "visitor",
      // Never requested whole, so never in the hot cache: every request goes through the route.
      build: (seeded) => ({ request: get(mediaPath(middlePhoto(seeded), "jpeg-3200"), { Range: "bytes=0-262143" }), check: (status) => (status === 206 ? null : `answered ${status}, not 206`) }),
    },
    { name: "/", viewer: "member", build: (seeded, _url, sessions) => ({ request: get("/", { Cookie: sessions.member }), check: expectText(seeded.photos.find((photo) => photo.visibility === "public" || photo.visibility === "members")?.id ?? "") }) },
    { name: "/", viewer: "admin", build: (seeded, _url, sessions) => ({ request: get("/", { Cookie: sessions.admin }), check: expectText(seeded.photos[0].id) }) },
    {
      name: "GET /api/photos?limit=30",
      viewer: "member",
      build: (seeded, _url, sessions) => ({ request: get(`/api/photos?limit=${PAGE_SIZE}`, { Cookie: sessions.member }), check: expectText(seeded.photos.find((photo) => photo.visibility === "public" || photo.visibility === "members")?.id ?? "") }),
    },
    { name: "GET /api/photos?limit=30", viewer: "admin", build: (seeded, _url, sessions) => ({ request: get(`/api/photos?limit=${PAGE_SIZE}`, { Cookie: sessions.admin }), check: expectText(seeded.photos[0].id) }) },
    {
      name: "GET /api/photos deepest page",
      viewer: "admin",
      build: (seeded, _url, sessions) => {
        // The cursor of the 31st photo from the end: the answer is the last 30.
        const cursor = encodeCursor(seeded.photos[seeded.photos.length - PAGE_SIZE - 1]);
        return { request: get(`/api/photos?limit=${PAGE_SIZE}&cursor=${cursor}`, { Cookie: sessions.admin }), check: expectText(seeded.photos[seeded.photos.length - 1].id) };
      },
    },
    { name: "/admin (dashboard)", viewer: "admin", build: (_seeded, _url, sessions) => ({ request: get("/admin", { Cookie: sessions.admin }), check: expectText("Processing queue") }) },
  ];
}
