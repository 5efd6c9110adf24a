import type { ErrorCode } from "@/src/errors/app-error";

interface RequestShape {
  method: string;
  pathname: string;
  isServerAction: boolean;
}

export const PAGE_METHODS = "GET, HEAD";

/** Paths answered by API handlers (JSON errors, any method): `/api/…` and a share link's visitor API, `/s/[key]/api/…`. */
export function isApiPath(pathname: string): boolean {
  return pathname === "/api" || pathname.startsWith("/api/") || /^\/s\/[^/]+\/api(\/|$)/.test(pathname);
}

/**
 * Answers the error a request gets before routing, or null when it may go on: a path that does
 * not decode is a 400, and pages only take GET and HEAD (plus server action POSTs, which Next.js
 * checks itself). App Router pages would otherwise render for any method.
 */
export function findRequestShapeError(request: RequestShape): { code: ErrorCode; status: 400 | 405 } | null {
  try {
    decodeURIComponent(request.pathname);
  } catch {
    return { code: "BAD_REQUEST", status: 400 };
  }
  const isApi = isApiPath(request.pathname);
  const isPageMethod = request.method === "GET" || request.method === "HEAD";
  if (!isApi && !isPageMethod && !(request.method === "POST" && request.isServerAction)) {
    return { code: "METHOD_NOT_ALLOWED", status: 405 };
  }
  return null;
}
