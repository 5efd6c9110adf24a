import type { Metadata } from "next";
import { ShareRefusalView } from "@/src/shares/components/share-refusal-view";

export const metadata: Metadata = { title: "Shared photos", robots: { index: false, follow: false } };

// A share link's 401 (every refusal of its pages, SECURITY.md 44): what happened in words, or the
// password form. Rendered inside the link's layout, which tells it the reason.
export default function ShareUnauthorized() {
  return <ShareRefusalView />;
}
