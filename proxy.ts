import { type NextRequest, NextResponse } from "next/server";
import { hasBearerAuthorization } from "@/src/auth/bearer-authorization";
import { findGuardRule } from "@/src/auth/guard-rules";
import { hasRole } from "@/src/access/roles";
import { readSessionCookie } from "@/src/auth/session-cookie";
import { htmlError } from "@/src/http/error-html";
import { jsonError } from "@/src/http/json-error";
import { findRequestShapeError, isApiPath, PAGE_METHODS } from "@/src/http/request-shape";
import { answerSharePageRefusal, isSharePageDocumentRequest } from "@/src/http/share-page-gate";
import { findServerActionBodyError } from "@/src/http/server-action-body";
import { isServerActionOriginAllowed } from "@/src/http/server-action-origin";

/**
 * The interceptor. It refuses malformed requests with the seed's error pages, then makes an
 * early, cheap check from the session token alone, so a signed-out visitor is sent to sign in
 * before any page work starts. It is only the first gate: every page and handler behind it
 * checks the user again against the database.
 */
export async function proxy(request: NextRequest): Promise<Response> {
  const { pathname } = request.nextUrl;
  const shapeError = findRequestShapeError({
    method: request.method,
    pathname,
    search: request.nextUrl.search,
    isServerAction: request.headers.has("next-action"),
  });
  if (shapeError) {
    const headers: Record<string, string> = shapeError.status === 405 ? { Allow: PAGE_METHODS } : {};
    return isApiPath(pathname)
      ? jsonError(shapeError.code, "The request path is not valid.", headers)
      : htmlError(shapeError.status, headers);
  }
  if (request.method === "POST" && request.headers.has("next-action") && !isApiPath(pathname)) {
    // SECURITY.md 62: an action called from another site, or from no page at all, is refused here
    // as a 403; Next.js's own check would answer it with a 500 and an error log, at will.
    if (!isServerActionOriginAllowed(request.headers)) {
      return jsonError("FORBIDDEN", "Server actions may only be called from this site's pages.");
    }
    // Next.js decodes an action's body before the action can check anything, and answers a body it
    // cannot decode with 500; such a body is refused here. (The action still checks its arguments.)
    const bodyError = await findServerActionBodyError(request.headers.get("content-type") ?? "", await request.arrayBuffer());
    if (bodyError) return jsonError(bodyError.code, bodyError.message);
  }

  // A share link's page the gate refuses: its branded 401, whole, before any rendering.
  if (isSharePageDocumentRequest(request)) return (await answerSharePageRefusal(request)) ?? NextResponse.next();

  const rule = findGuardRule(pathname);
  if (!rule) return NextResponse.next();
  // API tokens are checked (hash lookup, scope, the owner's current role) by the handler wrapper;
  // the interceptor only judges session cookies, so a Bearer call goes straight to its handler.
  if (rule.acceptsApiTokens && hasBearerAuthorization(request.headers)) return NextResponse.next();

  const claims = await readSessionCookie(request.cookies);
  if (!claims) {
    if (rule.kind === "api") return jsonError("UNAUTHENTICATED", "Sign in to continue.");
    const signIn = new URL("/signin", request.nextUrl.origin);
    signIn.searchParams.set("callbackUrl", pathname + request.nextUrl.search);
    return NextResponse.redirect(signIn, 307);
  }
  // Pages render their own 403 (with the role read fresh from the database); APIs answer here.
  if (rule.kind === "api" && !hasRole(claims.role, rule.role)) {
    return jsonError("FORBIDDEN", "Your role does not allow this.");
  }
  return NextResponse.next();
}

// Upload bodies (a multipart POST, a tus chunk) skip the interceptor: Next.js copies every body
// that passes through it into memory, and a 200 MB photo must stream to disk instead. Their
// handlers check the caller themselves, as every handler does; every other request under
// /api/upload still meets the interceptor first.
// (Next.js reads this statically, so the condition is written out twice rather than shared.)
export const config = {
  matcher: [
    // Everything but Next.js's own static files and images, and upload bodies.
    { source: "/((?!_next/static|_next/image|favicon.ico|api/upload).*)" },
    {
      source: "/api/upload",
      missing: [{ type: "header", key: "content-type", value: "(multipart/form-data|application/offset\\+octet-stream).*" }],
    },
    {
      source: "/api/upload/:path*",
      missing: [{ type: "header", key: "content-type", value: "(multipart/form-data|application/offset\\+octet-stream).*" }],
    },
  ],
};
