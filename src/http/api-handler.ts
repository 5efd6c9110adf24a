import "server-only";
import type { NextRequest } from "next/server";
import type { ApiTokenScope } from "@/src/access/scopes";
import { type ApiTokenCredential, authenticateApiToken, noteApiTokenUse } from "@/src/auth/api-token-user";
import { readBearerAuthorization } from "@/src/auth/bearer-authorization";
import { findSessionUser } from "@/src/auth/current-user";
import { hasRole, type Role } from "@/src/access/roles";
import { hasSessionCookie } from "@/src/auth/session-cookie";
import { type SessionUser, toViewer, type Viewer } from "@/src/access/viewer";
import { getEnv } from "@/src/config/env";
import { AppError } from "@/src/errors/app-error";
import { runWithRequestOrigin } from "@/src/audit/request-context";
import { getClientAddress } from "./client-address";
import { requestOrigin } from "./request-origin";
import { attachDescription, type HandlerAccess, type HandlerContract, type ParsedInput, type RawRouteParams } from "./handler-contract";
import { parseHandlerInput } from "./handler-input";
import { warnWhenAnswerIsUndocumented } from "./response-check";
import { toErrorResponse } from "./error-response";
import { jsonError } from "./json-error";
import { isSameOriginRequest } from "./same-origin";
import { getDb } from "@/src/db/client";
import { recordRequest } from "@/src/metrics/request-metrics";
import type { ShareRow } from "@/src/db/database";
import { requireShareGrant } from "@/src/shares/share-access";
import type { ShareGrant } from "@/src/shares/share-grant-cookie";
import { shareKeyFromPath } from "@/src/shares/share-key";
import { SHARE_GRANT_COOKIE } from "@/src/shares/share.types";

interface RouteContext {
  params: Promise<RawRouteParams>;
}

/** What every handler receives: the request and its parsed params, query and body. */
type HandlerArguments<Contract extends HandlerContract> = ParsedInput<Contract> & { request: NextRequest };

/** What a withViewer handler receives: also who is asking (maybe nobody). */
export type ViewerArguments<Contract extends HandlerContract> = HandlerArguments<Contract> & {
  /**
   * Who is asking, read from the session cookie on the first call and remembered for the request.
   * A function rather than a value so that an answer which needs no viewer (a public photo's bytes
   * on /media) skips the session lookup: eager, it cost signed-in visitors about a fifth of that
   * route's throughput.
   */
  resolveViewer(): Promise<Viewer>;
};

/** What a withUser handler receives: also the signed-in user, fresh from the database, and the same as a viewer. */
export type AuthenticatedArguments<Contract extends HandlerContract> = HandlerArguments<Contract> & { user: SessionUser; viewer: Viewer };

type RouteHandler = (request: NextRequest, context: RouteContext) => Promise<Response>;

const STATE_CHANGING_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Refuses cross-site state-changing calls that ride on a session cookie. */
function assertSameOrigin(request: NextRequest): void {
  if (!STATE_CHANGING_METHODS.has(request.method) || !hasSessionCookie(request.cookies)) return;
  if (!isSameOriginRequest(request.headers, new URL(getEnv().NEXTAUTH_URL).origin)) {
    throw new AppError("FORBIDDEN", "Cross-site requests are not allowed.");
  }
}

export interface WithUserOptions extends HandlerContract {
  /** The least role the caller needs, read fresh from the database for sessions and tokens alike. */
  role: Role;
  /**
   * The API-token scope that opens this route. Without it the route takes session cookies only, so
   * a stolen token can never reach pages' APIs, user management or token management itself.
   */
  scope?: ApiTokenScope;
}

// RFC 6750: a 401 on a route that takes tokens says how to authenticate.
const BEARER_CHALLENGE = { "WWW-Authenticate": 'Bearer realm="contact-sheet"' };

/**
 * Who is calling: a Bearer token (when the route has a scope) or the session cookie. A request
 * carrying both is refused rather than guessed at: the cookie could be a victim's ambient session
 * and the token a script's, and picking either silently would hide the mistake.
 */
async function authenticate(
  request: NextRequest,
  options: WithUserOptions,
): Promise<{ user: SessionUser; credential: ApiTokenCredential | null }> {
  const authorization = readBearerAuthorization(request.headers.get("authorization"));
  if (authorization.kind === "absent") {
    assertSameOrigin(request);
    const user = await findSessionUser(request.cookies);
    if (!user) throw new AppError("UNAUTHENTICATED", "Sign in to continue.", options.scope ? BEARER_CHALLENGE : {});
    return { user, credential: null };
  }
  if (hasSessionCookie(request.cookies)) {
    throw new AppError("BAD_REQUEST", "Send either a session cookie or an Authorization header, not both.");
  }
  if (!options.scope) {
    throw new AppError("UNAUTHENTICATED", "API tokens cannot be used here. Sign in to continue.");
  }
  // Bearer calls skip the same-origin check: a browser never attaches a token on its own, so a
  // cross-site page cannot ride on one (and a custom Authorization header needs CORS we do not grant).
  return authenticateApiToken(authorization, options.scope, getClientAddress(request.headers));
}

/** The handler's answer, unchanged; in development, first compared with its documented schema. */
async function checked(request: NextRequest, contract: HandlerContract, response: Response): Promise<Response> {
  await warnWhenAnswerIsUndocumented(request.method, contract, response);
  return response;
}

/**
 * What the three wrappers share. `admit` runs first (who is asking, may they); then the declared
 * params, query and body are parsed, so a caller who may not call learns nothing about the input;
 * then the handler runs. Errors of any kind become the JSON error shape, and the handler carries
 * its access and contract for the OpenAPI document.
 */
function wrap<Contract extends HandlerContract, Admitted extends object>(
  access: HandlerAccess,
  contract: Contract,
  admit: (request: NextRequest) => Promise<Admitted>,
  handler: (args: HandlerArguments<Contract> & Admitted) => Promise<Response>,
): RouteHandler {
  const wrapped: RouteHandler = (request, context) =>
    // The caller's address and user agent go with every audit row the handler writes.
    runWithRequestOrigin(requestOrigin(request.headers), async () => {
      const startedAt = performance.now();
      let params: RawRouteParams | undefined;
      let response: Response;
      try {
        params = await context.params;
        const admitted = await admit(request);
        const input = await parseHandlerInput(request, params, contract);
        response = await checked(request, contract, await handler({ request, ...admitted, ...input }));
      } catch (error) {
        response = toErrorResponse(error);
      }
      // Counted by the route's pattern (its params put back as names), never the raw URL.
      recordRequest({ method: request.method, pathname: request.nextUrl.pathname, params, status: response.status, seconds: (performance.now() - startedAt) / 1000 });
      return response;
    });
  return attachDescription(wrapped, { kind: "handler", access, contract });
}

/**
 * The one wrapper every signed-in API handler is exported through. Before the handler runs it
 * authenticates the caller (session cookie, or an API token where the route names a scope),
 * refuses cross-site cookie writes, re-checks the user against the database (so the interceptor
 * is never the only guard), checks the role, and parses the params, query and body the options
 * declare. Errors of any kind become the JSON error shape.
 */
export function withUser<Options extends WithUserOptions>(
  handler: (args: AuthenticatedArguments<Options>) => Promise<Response>,
  options: Options,
): RouteHandler {
  const access = { kind: "user", role: options.role, ...(options.scope ? { scope: options.scope } : {}) } as const;
  return wrap(access, options, async (request) => {
    const { user, credential } = await authenticate(request, options);
    if (!hasRole(user.role, options.role)) throw new AppError("FORBIDDEN", "Your role does not allow this.");
    if (credential) await noteApiTokenUse(credential);
    return { user, viewer: toViewer(user) };
  }, handler);
}

/** The same wrapper for handlers anyone may call: it parses the declared input and turns errors into JSON answers. */
export function withPublic<Contract extends HandlerContract>(
  handler: (args: HandlerArguments<Contract>) => Promise<Response>,
  contract: Contract,
): RouteHandler {
  return wrap({ kind: "public" }, contract, async (request) => {
    assertSameOrigin(request);
    return {};
  }, handler);
}

/**
 * The wrapper for handlers that answer visitors and signed-in users alike, differently: it tells
 * who is asking from the session cookie when the handler asks (anonymous when there is none or it
 * no longer holds), refuses cross-site cookie writes and parses the declared input. Errors become
 * the JSON error shape.
 */
export function withViewer<Contract extends HandlerContract>(
  handler: (args: ViewerArguments<Contract>) => Promise<Response>,
  contract: Contract,
): RouteHandler {
  return wrap({ kind: "viewer" }, contract, async (request) => {
    assertSameOrigin(request);
    let viewer: Promise<Viewer> | undefined;
    return { resolveViewer: () => (viewer ??= findSessionUser(request.cookies).then(toViewer)) };
  }, handler);
}

/** A JSON 405 with `Allow`, for a method a route does not take. */
export function methodNotAllowed(message: string, allow: string): RouteHandler {
  return attachDescription(async () => jsonError("METHOD_NOT_ALLOWED", message, { Allow: allow }), { kind: "method-not-allowed" });
}

const HANDLED_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof HANDLED_METHODS)[number];

/**
 * Fills in every method a route does not handle with a JSON 405 carrying `Allow` (Next.js's own
 * 405 has no body), and answers OPTIONS with the same list. HEAD is answered by Next.js from GET.
 * Use as `export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: ... })`.
 */
export function routeMethods(handlers: Partial<Record<Method, RouteHandler>>): Record<Method | "OPTIONS", RouteHandler> {
  const handled = HANDLED_METHODS.filter((method) => handlers[method]);
  const allowed = [...handled, ...(handled.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
  const refuse = methodNotAllowed(`This endpoint accepts ${handled.join(", ")}.`, allowed);
  const options = attachDescription<RouteHandler>(async () => new Response(null, { status: 204, headers: { Allow: allowed } }), { kind: "options" });
  const routes = Object.fromEntries(HANDLED_METHODS.map((method) => [method, handlers[method] ?? refuse]));
  return { ...(routes as Record<Method, RouteHandler>), OPTIONS: options };
}

/** What a withShareGrant handler receives: also the share the visitor was admitted to and their grant. */
export type ShareArguments<Contract extends HandlerContract> = HandlerArguments<Contract> & { share: ShareRow; grant: ShareGrant };

/**
 * The wrapper for every route a share link's visitor calls below `/s/[key]/` (variants, downloads,
 * the ZIP, the visitor API): the link must be open and the browser admitted to it
 * (requireShareGrant reads the share row on every request, so revoking ends access at once);
 * anything else is the same 401, whatever the reason. Writes must come from this site.
 */
export function withShareGrant<Contract extends HandlerContract>(
  handler: (args: ShareArguments<Contract>) => Promise<Response>,
  contract: Contract,
): RouteHandler {
  return wrap({ kind: "share" }, contract, async (request) => {
    if (STATE_CHANGING_METHODS.has(request.method) && !isSameOriginRequest(request.headers, new URL(getEnv().NEXTAUTH_URL).origin)) {
      throw new AppError("FORBIDDEN", "Cross-site requests are not allowed.");
    }
    const key = shareKeyFromPath(request.nextUrl.pathname);
    return requireShareGrant(getDb(), key, request.cookies.get(SHARE_GRANT_COOKIE)?.value, new Date());
  }, handler);
}
