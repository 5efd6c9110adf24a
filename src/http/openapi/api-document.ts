import "server-only";
import { getSessionCookieName } from "@/src/auth/session-cookie";
import { buildOpenApiDocument, type OpenApiDocument, type RouteModule } from "./build-openapi-document";

let cached: OpenApiDocument | null = null;

/** This server's OpenAPI document, built once per process (it only changes with the code). */
export function getApiDocument(routes: RouteModule[]): OpenApiDocument {
  cached ??= buildOpenApiDocument(routes, { sessionCookieName: getSessionCookieName() });
  return cached;
}
