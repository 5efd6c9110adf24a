"use client";

import toast from "react-hot-toast";

/** Copies a share link to the clipboard, with a toast; names the link for screen readers. */
export function CopyLinkButton({ url, label = "Copy link", title, className = "secondary button-small" }: { url: string; label?: string; title?: string; className?: string }) {
  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      toast.success("Link copied");
    } catch {
      toast.error("Could not copy: select the link and copy it yourself.");
    }
  }
  return (
    <button type="button" className={className} onClick={() => void copy()} aria-label={title ? `${label}: ${title}` : undefined}>
      {label}
    </button>
  );
}
