"use client";

import { useEffect } from "react";

/**
 * Keeps the browser tab's title once the page is live. The 403 and 404 pages are rendered inside a
 * page whose own metadata arrives with it, and would otherwise rename the tab after loading.
 */
export function DocumentTitle({ title }: { title: string }) {
  useEffect(() => {
    document.title = title;
  }, [title]);
  return null;
}
