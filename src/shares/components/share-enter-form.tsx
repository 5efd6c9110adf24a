"use client";

import { useEffect, useRef } from "react";

/**
 * The "View photos" form of a link this browser may come in to, after a client-side navigation
 * (the first document is answered by the interceptor, src/shares/share-refusal-page.ts, with the
 * same form). A plain form post to /s/[key]/api/enter, sent as soon as it is shown: only that POST
 * counts a view, never a GET a preview bot makes (SECURITY.md 59). The button is there for when
 * the post did not go (it is shown until the new page arrives).
 */
export function ShareEnterForm({ shareKey, next }: { shareKey: string; next: string }) {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    form.current?.submit();
  }, []);
  return (
    <form ref={form} method="post" action={`/s/${shareKey}/api/enter?next=${encodeURIComponent(next)}`} className="share-enter-form" aria-label="Open the shared photos">
      <button type="submit" className="button" data-testid="share-enter">
        View photos
      </button>
    </form>
  );
}
