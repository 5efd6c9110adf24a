import "server-only";
import type { NextRequest } from "next/server";
import { getDb } from "@/src/db/client";
import { getSiteIdentity } from "@/src/settings/site-settings.service";
import { decideShareAccess } from "@/src/shares/share-access";
import { renderShareRefusalPage } from "@/src/shares/share-refusal-page";
import type { SharePageRefusal } from "@/src/shares/share-refusal-words";
import { SHARE_GRANT_COOKIE } from "@/src/shares/share.types";

// The pages of a link: its gallery and its photo pages (not its API, variants or downloads).
const SHARE_PAGE_PATH = /^\/s\/([^/]+)(?:\/p\/[^/]+)?\/?$/;

/** Whether the interceptor should ask the gate before this request reaches a share page. */
export function isSharePageDocumentRequest(request: NextRequest): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  // Client-side navigations (RSC) reach the page, whose unauthorized() the browser renders itself.
  if (request.headers.has("rsc") || request.headers.has("next-router-prefetch") || request.headers.has("next-action")) return false;
  return SHARE_PAGE_PATH.test(request.nextUrl.pathname);
}

/**
 * A share page's 401 (SECURITY.md 44), answered whole before Next.js renders anything: Next.js
 * renders a page's unauthorized() fallback only in the browser (its HTML is an empty shell), and a
 * link's visitor must see what happened, and the password or "View photos" form, without
 * JavaScript too. Null when the page may go ahead: the browser holds a grant. The page checks
 * again itself.
 */
export async function answerSharePageRefusal(request: NextRequest): Promise<Response | null> {
  const match = SHARE_PAGE_PATH.exec(request.nextUrl.pathname);
  if (!match) return null;
  const key = match[1];
  const db = getDb();
  const access = await decideShareAccess(db, key, request.cookies.get(SHARE_GRANT_COOKIE)?.value, new Date());
  const query = request.nextUrl.searchParams;
  if (access.kind === "granted") return null;
  // A browser the link may admit gets the "View photos" form (POST /s/[key]/api/enter), never an
  // admission on this GET: preview bots and mail scanners fetch links too (SECURITY.md 59). Back
  // from that POST still without a grant, it keeps no cookies.
  const reason: SharePageRefusal = access.kind === "refused" ? access.reason : query.get("entered") === "1" ? "cookies" : "enter";
  const { siteTitle } = await getSiteIdentity(db);
  const html = renderShareRefusalPage({
    key,
    siteTitle,
    shareTitle: access.share?.title ?? null,
    reason,
    next: request.nextUrl.pathname,
    problem: query.get("password"),
    retryAfterSeconds: Number(query.get("retry")) || null,
  });
  return new Response(request.method === "HEAD" ? null : html, {
    status: 401,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Robots-Tag": "noindex, nofollow, noarchive",
      "Referrer-Policy": "same-origin",
      "X-Content-Type-Options": "nosniff",
      "X-Frame-Options": "DENY",
    },
  });
}
