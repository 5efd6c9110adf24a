import "server-only";
import type { NextRequest } from "next/server";
import { findSessionUser } from "@/src/auth/current-user";
import { hasRole, type Role } from "@/src/auth/roles";
import { hasSessionCookie } from "@/src/auth/session-cookie";
import type { SessionUser } from "@/src/auth/session-user";
import { getEnv } from "@/src/config/env";
import { AppError } from "./app-error";
import { toErrorResponse } from "./error-response";
import { jsonError } from "./json-error";
import { isSameOriginRequest } from "./same-origin";

type RouteParams = Record<string, string | string[] | undefined>;

interface RouteContext {
  params: Promise<RouteParams>;
}

interface HandlerArguments<Params> {
  request: NextRequest;
  params: Params;
}

export interface AuthenticatedArguments<Params> extends HandlerArguments<Params> {
  user: SessionUser;
}

const STATE_CHANGING_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Refuses cross-site state-changing calls that ride on a session cookie. */
function assertSameOrigin(request: NextRequest): void {
  if (!STATE_CHANGING_METHODS.has(request.method) || !hasSessionCookie(request.cookies)) return;
  if (!isSameOriginRequest(request.headers, new URL(getEnv().NEXTAUTH_URL).origin)) {
    throw new AppError("FORBIDDEN", "Cross-site requests are not allowed.");
  }
}

/**
 * The one wrapper every signed-in API handler is exported through. Before the handler runs it
 * refuses cross-site writes, reads the session and re-checks the user against the database (so the
 * interceptor is never the only guard), and checks the role. Errors of any kind become the JSON
 * error shape.
 */
export function withUser<Params extends RouteParams = RouteParams>(
  handler: (args: AuthenticatedArguments<Params>) => Promise<Response>,
  options: { role: Role },
): (request: NextRequest, context: RouteContext) => Promise<Response> {
  return async (request, context) => {
    try {
      assertSameOrigin(request);
      const user = await findSessionUser(request.cookies);
      if (!user) throw new AppError("UNAUTHENTICATED", "Sign in to continue.");
      if (!hasRole(user.role, options.role)) throw new AppError("FORBIDDEN", "Your role does not allow this.");
      return await handler({ request, user, params: (await context.params) as Params });
    } catch (error) {
      return toErrorResponse(error);
    }
  };
}

/** The same wrapper for handlers anyone may call: it only turns errors into JSON answers. */
export function withPublic<Params extends RouteParams = RouteParams>(
  handler: (args: HandlerArguments<Params>) => Promise<Response>,
): (request: NextRequest, context: RouteContext) => Promise<Response> {
  return async (request, context) => {
    try {
      assertSameOrigin(request);
      return await handler({ request, params: (await context.params) as Params });
    } catch (error) {
      return toErrorResponse(error);
    }
  };
}

const HANDLED_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof HANDLED_METHODS)[number];
type RouteHandler = (request: NextRequest, context: RouteContext) => Promise<Response>;

/**
 * Fills in every method a route does not handle with a JSON 405 carrying `Allow` (Next.js's own
 * 405 has no body), and answers OPTIONS with the same list. HEAD is answered by Next.js from GET.
 * Use as `export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: ... })`.
 */
export function routeMethods(handlers: Partial<Record<Method, RouteHandler>>): Record<Method | "OPTIONS", RouteHandler> {
  const handled = HANDLED_METHODS.filter((method) => handlers[method]);
  const allowed = [...handled, ...(handled.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
  const methodNotAllowed: RouteHandler = async () =>
    jsonError("METHOD_NOT_ALLOWED", `This endpoint accepts ${handled.join(", ")}.`, { Allow: allowed });
  const options: RouteHandler = async () => new Response(null, { status: 204, headers: { Allow: allowed } });
  const routes = Object.fromEntries(HANDLED_METHODS.map((method) => [method, handlers[method] ?? methodNotAllowed]));
  return { ...(routes as Record<Method, RouteHandler>), OPTIONS: options };
}
