import "server-only";
import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { getEnv } from "@/src/config/env";
import { getClientAddress } from "@/src/http/client-address";
import { toErrorResponse } from "@/src/http/error-response";
import { handleClientLog } from "@/src/log/client-log";
import { getAuthOptions, SIGN_IN_PAGE } from "./auth-options";
import { getSessionCookieName } from "./session-cookie";
import { getSignInRetryAfter, recordFailedSignIn, recordSuccessfulSignIn } from "./sign-in-limiter";

interface AuthRouteContext {
  params: Promise<{ nextauth: string[] }>;
}

function runNextAuth(request: NextRequest, context: AuthRouteContext): Promise<Response> {
  return NextAuth(request, context, getAuthOptions()) as Promise<Response>;
}

function setsSessionCookie(response: Response): boolean {
  const prefix = `${getSessionCookieName()}=`;
  return response.headers.getSetCookie().some((cookie) => cookie.startsWith(prefix) && !cookie.startsWith(`${prefix};`));
}

/**
 * POST /api/auth/callback/credentials – a password sign-in, rate-limited per address and per account
 * (next-auth has no limit of its own). The 429 keeps next-auth's `{ url }` shape so its client's
 * signIn() reports `error=RateLimited` instead of failing to parse.
 */
async function handleCredentialsSignIn(request: NextRequest, context: AuthRouteContext): Promise<Response> {
  const form = await request.clone().formData().catch(() => null);
  const emailField = form?.get("email");
  const email = typeof emailField === "string" ? emailField.slice(0, 254) : "";
  const address = getClientAddress(request.headers);
  const retryAfterSeconds = getSignInRetryAfter(address, email);
  if (retryAfterSeconds > 0) {
    const url = new URL(`${SIGN_IN_PAGE}?error=RateLimited`, getEnv().NEXTAUTH_URL).toString();
    return Response.json(
      { url, error: { code: "RATE_LIMITED", message: `Too many sign-in attempts. Try again in ${retryAfterSeconds} seconds.` } },
      { status: 429, headers: { "Retry-After": String(retryAfterSeconds), "Cache-Control": "no-store" } },
    );
  }
  const response = await runNextAuth(request, context);
  if (setsSessionCookie(response)) recordSuccessfulSignIn(email);
  else recordFailedSignIn(address, email);
  return response;
}

// GET /api/auth/* – session, csrf, providers, and next-auth's sign-in, sign-out and error pages
export async function handleAuthGet(request: NextRequest, context: AuthRouteContext): Promise<Response> {
  try {
    return await runNextAuth(request, context);
  } catch (error) {
    return toErrorResponse(error);
  }
}

// POST /api/auth/* – sign in, callbacks, sign out, and the client's error log
export async function handleAuthPost(request: NextRequest, context: AuthRouteContext): Promise<Response> {
  try {
    const [action, provider] = (await context.params).nextauth;
    if (action === "_log") return await handleClientLog(request);
    if (action === "callback" && provider === "credentials") return await handleCredentialsSignIn(request, context);
    return await runNextAuth(request, context);
  } catch (error) {
    return toErrorResponse(error);
  }
}
