"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { SHARE_REFUSAL_WORDS, type SharePageRefusal } from "../share-refusal-words";
import { useShareFrame } from "./share-frame";
import { ShareEnterForm } from "./share-enter-form";
import { SharePasswordForm } from "./share-password-form";


/**
 * The branded 401 of a share link: the site's and the link's title, what happened in plain words
 * (expired, turned off, used up, not valid), and the password or "View photos" form when that is
 * what is missing.
 */
export function ShareRefusalView() {
  const frame = useShareFrame();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const reason: SharePageRefusal =
    frame?.access === "refused" && frame.reason
      ? frame.reason
      : frame?.access === "admissible"
        ? searchParams.get("entered") === "1"
          ? "cookies"
          : "enter"
        : frame
          ? "closed"
          : "unknown";
  const words = SHARE_REFUSAL_WORDS[reason];
  const shareTitle = reason === "unknown" ? null : frame?.shareTitle;
  return (
    <section className="share-refusal card" aria-labelledby="share-refusal-title" data-testid="share-refusal" data-reason={reason}>
      <div className="share-refusal-icon" aria-hidden="true">
        {reason === "password_required" ? <LockIcon /> : reason === "enter" ? <PhotoIcon /> : <LinkOffIcon />}
      </div>
      {shareTitle && <p className="share-refusal-share">{shareTitle}</p>}
      <h1 id="share-refusal-title">{words.heading}</h1>
      <p className="share-refusal-body">{words.body}</p>
      {reason === "password_required" && frame && (
        <SharePasswordForm
          shareKey={frame.key}
          next={pathname}
          initialProblem={searchParams.get("password")}
          initialRetryAfter={Number(searchParams.get("retry")) || null}
        />
      )}
      {reason === "enter" && frame && <ShareEnterForm shareKey={frame.key} next={pathname} />}
      {frame && <p className="share-refusal-site">Shared from {frame.siteTitle}</p>}
    </section>
  );
}

function LockIcon() {
  return (
    <svg viewBox="0 0 24 24" focusable="false">
      <rect x="5" y="10.5" width="14" height="10" rx="2" />
      <path d="M8.5 10.5V7.5a3.5 3.5 0 0 1 7 0v3" />
    </svg>
  );
}

function PhotoIcon() {
  return (
    <svg viewBox="0 0 24 24" focusable="false">
      <rect x="3.5" y="5" width="17" height="14" rx="2" />
      <circle cx="9" cy="10" r="1.6" />
      <path d="M20.5 16l-5-5-8 8" />
    </svg>
  );
}

function LinkOffIcon() {
  return (
    <svg viewBox="0 0 24 24" focusable="false">
      <path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1" />
      <path d="M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" />
      <path d="M4 4l16 16" />
    </svg>
  );
}
