import { usesSecureCookies } from "@/src/auth/session-cookie";
import { getEnv } from "@/src/config/env";
import { getDb } from "@/src/db/client";
import { AppError } from "@/src/errors/app-error";
import { routeMethods, withPublic } from "@/src/http/api-handler";
import { getClientAddress } from "@/src/http/client-address";
import { isSameOriginRequest } from "@/src/http/same-origin";
import { grantCookieHeader } from "@/src/shares/share-grant-cookie";
import { sharePath } from "@/src/shares/share-key";
import { shareKeyParamsSchema, sharePasswordBodySchema } from "@/src/shares/share-visitor.schemas";
import { shareReturnPath, submitSharePassword } from "@/src/shares/share-visits.service";

const MAXIMUM_BODY_BYTES = 8 * 1024;

/** The password (and, from the page's form, where to go next) from a form post or a JSON body. */
async function readPasswordBody(request: Request): Promise<{ password: string; next: string | null; isForm: boolean }> {
  if (Number(request.headers.get("content-length") ?? "0") > MAXIMUM_BODY_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", "The request body is too large.");
  const isJson = (request.headers.get("content-type") ?? "").toLowerCase().startsWith("application/json");
  const text = await request.text();
  if (text.length > MAXIMUM_BODY_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", "The request body is too large.");
  if (isJson) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new AppError("BAD_REQUEST", "The request body is not valid JSON.");
    }
    return { password: sharePasswordBodySchema.parse(body).password, next: null, isForm: false };
  }
  const form = new URLSearchParams(text);
  return { password: form.get("password") ?? "", next: form.get("next"), isForm: true };
}

function seeOther(location: string, headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store", ...headers } });
}

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  // POST /s/<key>/api/password – the link's password (form post or JSON); admits the browser when right
  POST: withPublic(
    async ({ params, request }) => {
      // Only this site's own form may post it (the browser carries no grant yet, so withPublic's check does not apply).
      if (!isSameOriginRequest(request.headers, new URL(getEnv().NEXTAUTH_URL).origin)) throw new AppError("FORBIDDEN", "Cross-site requests are not allowed.");
      const { password, next, isForm } = await readPasswordBody(request);
      const answer = await submitSharePassword(getDb(), params.key, password, getClientAddress(request.headers), new Date());
      const base = sharePath(params.key);
      if (answer.kind === "admitted" || answer.kind === "already") {
        const cookie: Record<string, string> = answer.kind === "admitted" ? { "Set-Cookie": grantCookieHeader(params.key, answer.cookieValue, usesSecureCookies()) } : {};
        return isForm ? seeOther(shareReturnPath(params.key, next), cookie) : new Response(null, { status: 204, headers: { ...cookie, "Cache-Control": "no-store" } });
      }
      if (answer.kind === "rate_limited") {
        const retryAfter = String(answer.retryAfterSeconds);
        if (isForm) return seeOther(`${base}?password=limited&retry=${retryAfter}`);
        const minutes = Math.max(1, Math.ceil(answer.retryAfterSeconds / 60));
        throw new AppError("RATE_LIMITED", `Too many tries. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`, { "Retry-After": retryAfter });
      }
      if (answer.kind === "wrong_password") {
        if (isForm) return seeOther(`${base}?password=wrong`);
        throw new AppError("UNAUTHENTICATED", "That password is not right.");
      }
      // Revoked, expired, used up or no such link: the page says which; the API does not.
      if (isForm) return seeOther(base);
      throw new AppError("UNAUTHENTICATED", "This share link is not open to you.");
    },
    {
      summary: "Enter a share link's password",
      description:
        "From the link's page form (`application/x-www-form-urlencoded`: `password`, optional `next`; answered 303, back to the page with the reason on failure) or as JSON `{ password }` (204 with the grant cookie, 401 wrong or refused, 429 with Retry-After). " +
        "Checked with argon2id; at most 5 tries per 5 minutes from one address (an IPv6 /64) for the link, 20 an hour from one address for every link, and 300 an hour for the link from everywhere; wrong tries are in the link's access log.",
      params: shareKeyParamsSchema,
      rawBody: { contentType: "application/json", description: "`{ \"password\": \"…\" }`, or the same as a form post." },
      response: { status: 204, description: "Admitted: Set-Cookie carries the grant (Path=/s/{key}, HttpOnly)." },
      errors: ["BAD_REQUEST", "UNAUTHENTICATED", "FORBIDDEN", "RATE_LIMITED", "PAYLOAD_TOO_LARGE", "INVALID_INPUT"],
    },
  ),
});
