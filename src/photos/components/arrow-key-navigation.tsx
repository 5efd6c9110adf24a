"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/**
 * Left and right arrow keys move to the previous and next photo: not while typing in a field, and
 * not when something else took the key (the full-screen viewer moves itself; a dialog is open).
 */
export function ArrowKeyNavigation({ previousHref, nextHref }: { previousHref: string | null; nextHref: string | null }) {
  const router = useRouter();
  useEffect(() => {
    function handleKey(event: KeyboardEvent) {
      const target = event.target as HTMLElement | null;
      if (event.defaultPrevented || event.altKey || event.metaKey || event.ctrlKey) return;
      if (target?.closest("input, textarea, select, [contenteditable], dialog, .pswp") || document.querySelector(".pswp, dialog[open]")) return;
      if (event.key === "ArrowLeft" && previousHref) router.push(previousHref);
      if (event.key === "ArrowRight" && nextHref) router.push(nextHref);
    }
    window.addEventListener("keydown", handleKey);
    return () => window.removeEventListener("keydown", handleKey);
  }, [previousHref, nextHref, router]);
  return null;
}
