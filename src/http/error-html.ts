import { getErrorTitle } from "@/src/errors/error-titles";

/**
 * A complete, static error page for answers given before the app renders anything (the
 * interceptor's 400 and 405), with the same title and look as the rendered error pages.
 */
export function htmlError(status: number, headers: Record<string, string> = {}): Response {
  const title = getErrorTitle(status);
  const body = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${status}: ${title}</title><style>body{font-family:ui-sans-serif,system-ui,sans-serif;color:#111827;margin:0}section{text-align:center;margin:5rem auto;max-width:36rem}h1{display:flex;justify-content:center;gap:1rem;font-size:1.25rem;font-weight:500}h1 span:first-child{font-weight:700;padding-right:1rem;border-right:1px solid #e5e7eb}</style></head><body><section><h1><span>${status}</span><span>${title}</span></h1><p><a href="/">Back to the gallery</a></p></section></body></html>`;
  return new Response(body, {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", ...headers },
  });
}
