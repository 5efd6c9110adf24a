import type { ErrorCode } from "@/src/errors/app-error";
import { isStorableText } from "@/src/validation/input-text";

interface RequestShape {
  method: string;
  pathname: string;
  /** The query as sent, still percent-encoded (`?a=b`), or "". */
  search?: string;
  isServerAction: boolean;
}

export const PAGE_METHODS = "GET, HEAD";

/** Paths answered by API handlers (JSON errors, any method): `/api/…` and a share link's visitor API, `/s/[key]/api/…`. */
export function isApiPath(pathname: string): boolean {
  return pathname === "/api" || pathname.startsWith("/api/") || /^\/s\/[^/]+\/api(\/|$)/.test(pathname);
}

/**
 * Whether every part of the text decodes from percent-encoded UTF-8 to text both databases can
 * store (no NUL): `%C3%28`, a lone `%FF` or `%00` anywhere in the path or the query names nothing.
 */
function decodesToStorableText(encoded: string): boolean {
  try {
    return isStorableText(decodeURIComponent(encoded.replaceAll("+", " ")));
  } catch {
    return false;
  }
}

/**
 * Answers the error a request gets before routing, or null when it may go on: a path or query that
 * does not decode to storable text is a 400 (SECURITY.md 58: every page and route at once, before
 * any of them reads a param), and pages only take GET and HEAD (plus server action POSTs, which Next.js
 * checks itself). App Router pages would otherwise render for any method.
 */
export function findRequestShapeError(request: RequestShape): { code: ErrorCode; status: 400 | 405 } | null {
  if (!decodesToStorableText(request.pathname) || !decodesToStorableText(request.search ?? "")) {
    return { code: "BAD_REQUEST", status: 400 };
  }
  const isApi = isApiPath(request.pathname);
  const isPageMethod = request.method === "GET" || request.method === "HEAD";
  if (!isApi && !isPageMethod && !(request.method === "POST" && request.isServerAction)) {
    return { code: "METHOD_NOT_ALLOWED", status: 405 };
  }
  return null;
}
