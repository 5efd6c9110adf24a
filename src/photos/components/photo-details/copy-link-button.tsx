"use client";

import { useEffect, useState } from "react";
import toast from "react-hot-toast";

/** Copies the photo page's address; the button says "Copied" for a moment, so no toast is needed. */
export function CopyLinkButton({ path }: { path: string }) {
  const [isCopied, setIsCopied] = useState(false);
  useEffect(() => {
    if (!isCopied) return;
    const timer = window.setTimeout(() => setIsCopied(false), 2000);
    return () => window.clearTimeout(timer);
  }, [isCopied]);

  async function copy(): Promise<void> {
    try {
      await navigator.clipboard.writeText(new URL(path, window.location.origin).href);
      setIsCopied(true);
    } catch {
      toast.error("Could not copy the link. Copy it from the address bar.");
    }
  }

  return (
    <button type="button" className="button secondary photo-action" onClick={() => void copy()}>
      <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        {isCopied ? <path d="M5 12.5l4.5 4.5L19 7.5" /> : <path d="M10 14a4 4 0 0 0 5.66 0l3-3a4 4 0 0 0-5.66-5.66l-1 1M14 10a4 4 0 0 0-5.66 0l-3 3a4 4 0 0 0 5.66 5.66l1-1" />}
      </svg>
      <span aria-live="polite">{isCopied ? "Copied" : "Copy link"}</span>
    </button>
  );
}
