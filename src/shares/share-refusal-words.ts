// Client-safe: what a share link's 401 page says for each reason, shared by the document the
// interceptor answers (share-refusal-page.ts) and the view the browser renders after a client-side
// navigation (components/share-refusal-view.tsx).

import type { ShareRefusal } from "./share.types";

/**
 * Every reason a page of a link is not shown: the gate's, "cookies" (admitted, but the browser kept
 * no cookie) and "enter" (the link may admit this browser: the "View photos" form, which the page's
 * script sends at once; only that POST counts a view, never the GET a preview bot makes).
 */
export type SharePageRefusal = ShareRefusal | "cookies" | "closed" | "enter";

export const SHARE_REFUSAL_WORDS: Record<SharePageRefusal, { heading: string; body: string }> = {
  password_required: { heading: "This link has a password", body: "Enter the password you were given to see the photos." },
  expired: { heading: "This link has expired", body: "The photos shared here are no longer available. Ask the person who sent it for a new link." },
  revoked: { heading: "This link was turned off", body: "The person who shared these photos has ended this link. Ask them for a new one if you still need it." },
  used_up: { heading: "This link has been used up", body: "It could be opened a limited number of times, and it has been. Ask the person who sent it for a new link." },
  unknown: { heading: "This link is not valid", body: "Check that the address is complete and exactly as you received it." },
  cookies: {
    heading: "This page needs cookies",
    body: "Your browser did not keep the small cookie that lets you in to these photos. Allow cookies for this site, then open the link again.",
  },
  enter: { heading: "Photos shared with you", body: "Open them to see them here." },
  closed: { heading: "This link is no longer open to you", body: "It may have been turned off or have expired. Reload the page to see why." },
};

/** The words for what went wrong with a password try. */
export function describePasswordProblem(problem: string | null, retryAfterSeconds: number | null): string | null {
  if (problem === "wrong") return "That password is not right. Check it and try again.";
  if (problem === "limited") {
    const minutes = Math.max(1, Math.ceil((retryAfterSeconds ?? 300) / 60));
    return `Too many tries. Wait ${minutes} minute${minutes === 1 ? "" : "s"}, then try again.`;
  }
  return null;
}
