import { API_TOKEN_SCOPES, SCOPE_DESCRIPTIONS, SCOPE_MINIMUM_ROLE } from "@/src/access/scopes";
import { findHandlerDescription } from "../handler-contract";
import { buildOperation, SESSION_SCHEME, SHARE_SCHEME, TOKEN_SCHEME } from "./build-operation";
import { errorBodySchema } from "./error-responses";
import { toJsonSchema } from "./json-schema";
import { toOpenApiPaths } from "./route-path";
import { UNWRAPPED_ROUTES } from "./unwrapped-routes";
import { SHARE_GRANT_COOKIE } from "@/src/shares/share.types";

/** A route file and what it exports (its handlers, by HTTP method). */
export interface RouteModule {
  /** The route file, relative to the repository: `app/api/photos/[id]/route.ts`. */
  file: string;
  exports: Record<string, unknown>;
}

export type OpenApiDocument = Record<string, unknown> & { paths: Record<string, Record<string, unknown>> };

const DOCUMENTED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/** The path items of one wrapped route file: every method its wrappers describe, at each of its paths. */
function buildPathItems(route: RouteModule): Record<string, Record<string, unknown>> {
  const paths = toOpenApiPaths(route.file);
  const items: Record<string, Record<string, unknown>> = Object.fromEntries(paths.map((path) => [path, {}]));
  for (const method of DOCUMENTED_METHODS) {
    const description = findHandlerDescription(route.exports[method]);
    if (description?.kind !== "handler") continue;
    const { catchAll } = description.contract;
    // An optional catch-all gives [bare, with segments]; a method may belong to one of them only.
    const targets = paths.length === 2 && catchAll ? [catchAll === "empty" ? paths[0] : paths[1]] : paths;
    for (const path of targets) items[path][method.toLowerCase()] = buildOperation(path, method, description.access, description.contract);
  }
  return items;
}

const SCOPE_TABLE = [
  "| Scope | Least role | Opens |",
  "|---|---|---|",
  ...API_TOKEN_SCOPES.map((scope) => `| \`${scope}\` | ${SCOPE_MINIMUM_ROLE[scope]} | ${SCOPE_DESCRIPTIONS[scope]} |`),
].join("\n");

/**
 * The OpenAPI 3.1 document of the whole HTTP API, generated from the wrappers' metadata of every
 * route file given (and the hand-described unwrapped ones). Nothing in it is private: it lists
 * what exists and who may call it, which the answers themselves already tell anyone who asks.
 */
export function buildOpenApiDocument(routes: RouteModule[], options: { sessionCookieName: string }): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const unwrapped = UNWRAPPED_ROUTES[route.file];
    if (unwrapped) paths[unwrapped.path] = unwrapped.pathItem;
    else Object.assign(paths, buildPathItems(route));
  }
  const sortedPaths = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
  return {
    openapi: "3.1.0",
    info: {
      title: "Contact Sheet API",
      version: "1",
      description:
        "The HTTP API of this Contact Sheet site. Generated from the route handlers themselves; a readable version is at /api/docs. Every error answers `{\"error\": {\"code\", \"message\"}}`.",
    },
    paths: sortedPaths,
    components: {
      schemas: { Error: toJsonSchema(errorBodySchema, "output") },
      securitySchemes: {
        [SESSION_SCHEME]: {
          type: "apiKey",
          in: "cookie",
          name: options.sessionCookieName,
          description: "The session cookie next-auth sets at sign-in. Writes with it must come from this site (Origin checked).",
        },
        [TOKEN_SCHEME]: {
          type: "http",
          scheme: "bearer",
          description: `An API token (\`cs_…\`) made on Admin → API tokens or with POST /api/tokens. It acts as its owner with the owner's current role. Scopes:\n\n${SCOPE_TABLE}`,
        },
        [SHARE_SCHEME]: {
          type: "apiKey",
          in: "cookie",
          name: SHARE_GRANT_COOKIE,
          description: "The grant a share link's visitor gets on opening /s/{key} (after its password, if it has one), scoped to that link's path. Writes with it must come from this site (Origin checked).",
        },
      },
    },
  };
}
