import "server-only";
import NextAuth from "next-auth";
import { NextRequest } from "next/server";
import { getEnv } from "@/src/config/env";
import { AppError } from "@/src/errors/app-error";
import { handleClientLog } from "./client-log";
import { getAuthOptions, SIGN_IN_PAGE } from "@/src/auth/auth-options";
import { getSessionCookieName } from "@/src/auth/session-cookie";
import { recordRefusedSignIn, recordSuccessfulSignIn, reserveSignInAttempt } from "@/src/auth/sign-in-limiter";
import { runWithRequestOrigin } from "@/src/audit/request-context";
import { requestOrigin } from "./request-origin";
import { getClientAddress } from "./client-address";
import { parseCredentialsForm, readCredentialsBody } from "./credentials-form";
import { toErrorResponse } from "./error-response";

interface AuthRouteContext {
  params: Promise<{ nextauth: string[] }>;
}

const CALLBACK_URL_COOKIES = ["next-auth.callback-url", "__Secure-next-auth.callback-url"];

/** next-auth's own test of a callback URL (core/lib/assert.js): an http(s) URL, or a path on this site. */
function isCallbackUrlNextAuthTakes(value: string, base: string): boolean {
  try {
    return /^https?:/.test(new URL(value, value.startsWith("/") ? base : undefined).protocol);
  } catch {
    return false;
  }
}

// next-auth's pages: for these it answers an unreadable callback URL with a redirect to its error page.
const NEXT_AUTH_HTML_ACTIONS = new Set(["signin", "signout", "error", "verify-request"]);

/**
 * next-auth answers a callback URL it cannot read (`?callbackUrl=foo`, or that cookie) with a 500
 * and an error log, except on its own pages' GETs (core/index.js); a client's malformed input is a
 * 400, so it is refused here first where next-auth would fail.
 */
async function assertCallbackUrlIsReadable(request: NextRequest, context: AuthRouteContext): Promise<void> {
  const [action] = (await context.params).nextauth;
  if (request.method === "GET" && NEXT_AUTH_HTML_ACTIONS.has(action)) return;
  const base = getEnv().NEXTAUTH_URL;
  const values = [request.nextUrl.searchParams.get("callbackUrl"), ...CALLBACK_URL_COOKIES.map((name) => request.cookies.get(name)?.value)];
  if (values.some((value) => value && !isCallbackUrlNextAuthTakes(value, base))) {
    throw new AppError("BAD_REQUEST", "The callback URL is not a URL or a path on this site.");
  }
}

async function runNextAuth(request: NextRequest, context: AuthRouteContext): Promise<Response> {
  await assertCallbackUrlIsReadable(request, context);
  return (await NextAuth(request, context, getAuthOptions())) as Response;
}

function setsSessionCookie(response: Response): boolean {
  const prefix = `${getSessionCookieName()}=`;
  return response.headers.getSetCookie().some((cookie) => cookie.startsWith(prefix) && !cookie.startsWith(`${prefix};`));
}

/**
 * The request next-auth gets: the fields we read, written back as the one form spelling it reads
 * the same way, so the e-mail it checks is the e-mail we counted.
 */
function withFormBody(request: NextRequest, fields: URLSearchParams): NextRequest {
  const headers = new Headers(request.headers);
  headers.set("content-type", "application/x-www-form-urlencoded");
  headers.delete("content-length");
  return new NextRequest(request.url, { method: "POST", headers, body: fields.toString() });
}

function rateLimitedAnswer(retryAfterSeconds: number): Response {
  // next-auth's { url } shape, so its client's signIn() reports error=RateLimited instead of failing to parse.
  const url = new URL(`${SIGN_IN_PAGE}?error=RateLimited`, getEnv().NEXTAUTH_URL).toString();
  return Response.json(
    { url, error: { code: "RATE_LIMITED", message: `Too many sign-in attempts. Try again in ${retryAfterSeconds} seconds.` } },
    { status: 429, headers: { "Retry-After": String(retryAfterSeconds), "Cache-Control": "no-store" } },
  );
}

/**
 * POST /api/auth/callback/credentials – a password sign-in, rate-limited per (account, address),
 * per address and per account (next-auth has no limit of its own). The body is read once, here:
 * a body next-auth could read differently (repeated fields, JSON, another type or charset) is
 * refused with 400 before anything is counted or checked.
 */
async function handleCredentialsSignIn(request: NextRequest, context: AuthRouteContext): Promise<Response> {
  const fields = parseCredentialsForm(request.headers.get("content-type"), await readCredentialsBody(request));
  const email = (fields.get("email") ?? "").slice(0, 254);
  const address = getClientAddress(request.headers);
  const retryAfterSeconds = await reserveSignInAttempt(address, email);
  if (retryAfterSeconds > 0) {
    // Counted per window, one audit row each (success and failure are recorded by authorize).
    await recordRefusedSignIn(address, email);
    return rateLimitedAnswer(retryAfterSeconds);
  }
  const response = await runNextAuth(withFormBody(request, fields), context);
  if (setsSessionCookie(response)) await recordSuccessfulSignIn(address, email);
  return response;
}

// GET /api/auth/* – session, csrf, providers, and next-auth's sign-in, sign-out and error pages
export function handleAuthGet(request: NextRequest, context: AuthRouteContext): Promise<Response> {
  // OAuth callbacks arrive as GETs and may create or link accounts: audited with their origin.
  return runWithRequestOrigin(requestOrigin(request.headers), async () => {
    try {
      return await runNextAuth(request, context);
    } catch (error) {
      return toErrorResponse(error);
    }
  });
}


// POST /api/auth/* – sign in, callbacks, sign out, and the client's error log
export function handleAuthPost(request: NextRequest, context: AuthRouteContext): Promise<Response> {
  // Sign-ins are audited with the caller's address and user agent (src/audit/request-context.ts).
  return runWithRequestOrigin(requestOrigin(request.headers), () => answerAuthPost(request, context));
}

async function answerAuthPost(request: NextRequest, context: AuthRouteContext): Promise<Response> {
  try {
    const [action, provider] = (await context.params).nextauth;
    if (action === "_log") return await handleClientLog(request);
    if (action === "callback" && provider === "credentials") return await handleCredentialsSignIn(request, context);
    return await runNextAuth(request, context);
  } catch (error) {
    return toErrorResponse(error);
  }
}
