import type { RouteModule } from "@/src/http/openapi/build-openapi-document";

// Every route file of the HTTP API, for the OpenAPI document. Loaded on first use, not imported,
// so the document's own route can be listed without importing itself. tests/openapi.test.ts
// fails when a route file is missing here (it compares the file tree with the document).
const ROUTE_LOADERS: Record<string, () => Promise<Record<string, unknown>>> = {
  "app/(gallery)/p/[id]/download/route.ts": () => import("./(gallery)/p/[id]/download/route"),
  "app/api/[...path]/route.ts": () => import("./api/[...path]/route"),
  "app/api/admin/audit.csv/route.ts": () => import("./api/admin/audit.csv/route"),
  "app/api/admin/audit/route.ts": () => import("./api/admin/audit/route"),
  "app/api/admin/settings/route.ts": () => import("./api/admin/settings/route"),
  "app/api/admin/users/[id]/password/route.ts": () => import("./api/admin/users/[id]/password/route"),
  "app/api/admin/users/[id]/route.ts": () => import("./api/admin/users/[id]/route"),
  "app/api/admin/users/[id]/sessions/route.ts": () => import("./api/admin/users/[id]/sessions/route"),
  "app/api/admin/users/route.ts": () => import("./api/admin/users/route"),
  "app/api/albums/[id]/photos/route.ts": () => import("./api/albums/[id]/photos/route"),
  "app/api/albums/[id]/route.ts": () => import("./api/albums/[id]/route"),
  "app/api/albums/route.ts": () => import("./api/albums/route"),
  "app/api/auth/[...nextauth]/route.ts": () => import("./api/auth/[...nextauth]/route"),
  "app/api/docs/route.ts": () => import("./api/docs/route"),
  "app/api/health/route.ts": () => import("./api/health/route"),
  "app/api/me/sessions/route.ts": () => import("./api/me/sessions/route"),
  "app/api/openapi.json/route.ts": () => import("./api/openapi.json/route"),
  "app/api/photos/[id]/download/route.ts": () => import("./api/photos/[id]/download/route"),
  "app/api/photos/[id]/original/route.ts": () => import("./api/photos/[id]/original/route"),
  "app/api/photos/[id]/retry/route.ts": () => import("./api/photos/[id]/retry/route"),
  "app/api/photos/[id]/route.ts": () => import("./api/photos/[id]/route"),
  "app/api/photos/[id]/tags/route.ts": () => import("./api/photos/[id]/tags/route"),
  "app/api/photos/library/route.ts": () => import("./api/photos/library/route"),
  "app/api/photos/route.ts": () => import("./api/photos/route"),
  "app/api/search/facets/route.ts": () => import("./api/search/facets/route"),
  "app/api/search/route.ts": () => import("./api/search/route"),
  "app/api/search/suggest/route.ts": () => import("./api/search/suggest/route"),
  "app/api/setup/route.ts": () => import("./api/setup/route"),
  "app/api/shares/[id]/access-log/route.ts": () => import("./api/shares/[id]/access-log/route"),
  "app/api/shares/[id]/route.ts": () => import("./api/shares/[id]/route"),
  "app/api/shares/[id]/selection-lock/route.ts": () => import("./api/shares/[id]/selection-lock/route"),
  "app/api/shares/[id]/selections.csv/route.ts": () => import("./api/shares/[id]/selections.csv/route"),
  "app/api/shares/[id]/selections.txt/route.ts": () => import("./api/shares/[id]/selections.txt/route"),
  "app/api/shares/[id]/selections/route.ts": () => import("./api/shares/[id]/selections/route"),
  "app/api/shares/route.ts": () => import("./api/shares/route"),
  "app/api/tags/[id]/route.ts": () => import("./api/tags/[id]/route"),
  "app/api/tags/merge/route.ts": () => import("./api/tags/merge/route"),
  "app/api/tags/photos/route.ts": () => import("./api/tags/photos/route"),
  "app/api/tags/route.ts": () => import("./api/tags/route"),
  "app/api/tags/suggest/route.ts": () => import("./api/tags/suggest/route"),
  "app/api/trash/restore/route.ts": () => import("./api/trash/restore/route"),
  "app/api/trash/route.ts": () => import("./api/trash/route"),
  "app/api/tokens/[id]/route.ts": () => import("./api/tokens/[id]/route"),
  "app/api/tokens/route.ts": () => import("./api/tokens/route"),
  "app/api/upload/route.ts": () => import("./api/upload/route"),
  "app/api/upload/tus/[[...path]]/route.ts": () => import("./api/upload/tus/[[...path]]/route"),
  "app/media/[...key]/route.ts": () => import("./media/[...key]/route"),
  "app/s/[key]/api/feedback/[photoId]/route.ts": () => import("./s/[key]/api/feedback/[photoId]/route"),
  "app/s/[key]/api/password/route.ts": () => import("./s/[key]/api/password/route"),
  "app/s/[key]/api/photos/[photoId]/route.ts": () => import("./s/[key]/api/photos/[photoId]/route"),
  "app/s/[key]/api/photos/route.ts": () => import("./s/[key]/api/photos/route"),
  "app/s/[key]/api/selection/route.ts": () => import("./s/[key]/api/selection/route"),
  "app/s/[key]/api/visitor/route.ts": () => import("./s/[key]/api/visitor/route"),
  "app/s/[key]/download.zip/route.ts": () => import("./s/[key]/download.zip/route"),
  "app/s/[key]/enter/route.ts": () => import("./s/[key]/enter/route"),
  "app/s/[key]/media/[...storageKey]/route.ts": () => import("./s/[key]/media/[...storageKey]/route"),
  "app/s/[key]/p/[photoId]/download/route.ts": () => import("./s/[key]/p/[photoId]/download/route"),
};

let loaded: Promise<RouteModule[]> | null = null;

/** Every API route module with its file, loaded once per process. */
export function loadApiRoutes(): Promise<RouteModule[]> {
  loaded ??= Promise.all(Object.entries(ROUTE_LOADERS).map(async ([file, load]) => ({ file, exports: await load() })));
  return loaded;
}
