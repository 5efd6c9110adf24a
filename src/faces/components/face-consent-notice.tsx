"use client";

import Link from "next/link";
import { useRef, useState } from "react";
import { FACE_CONSENT_LATER_COOKIE, FACE_CONSENT_LATER_SECONDS } from "../face-consent-later";

interface FaceConsentNoticeProps {
  /** Which words the user is asked (face-consent.service.ts): "not now" is remembered for these only. */
  textVersion: string;
  /** The user agreed to earlier words, since changed. */
  textChanged: boolean;
}

/**
 * People's consent asked where photos arrive (the library, the upload page), not only on /people:
 * shown while people is on and the signed-in user has not answered the words asked now (the page
 * asks shouldAskFaceConsent). It links to the answer on /people, where the whole text is read, and
 * can be put off: "not now" is remembered in a cookie for these words (face-consent-later.ts). A
 * landmark of its own with a heading, so a screen reader finds it; putting it off hands focus to
 * the page's heading instead of dropping it on the body.
 */
export function FaceConsentNotice({ textVersion, textChanged }: FaceConsentNoticeProps) {
  const [isPutOff, setIsPutOff] = useState(false);
  const ref = useRef<HTMLElement>(null);

  function putOff() {
    document.cookie = `${FACE_CONSENT_LATER_COOKIE}=${textVersion}; Max-Age=${FACE_CONSENT_LATER_SECONDS}; Path=/; SameSite=Lax${window.location.protocol === "https:" ? "; Secure" : ""}`;
    const heading = ref.current?.closest("main, .page")?.querySelector<HTMLElement>("h1");
    setIsPutOff(true);
    if (heading) {
      heading.tabIndex = -1;
      heading.focus();
    }
  }

  if (isPutOff) return null;
  return (
    <aside ref={ref} className="face-consent-notice" aria-labelledby="face-consent-notice-title" data-testid="face-consent-notice">
      <div className="face-consent-notice-body">
        <h2 id="face-consent-notice-title">{textChanged ? "The words about finding faces have changed" : "Find people in your photos?"}</h2>
        <p>
          {textChanged
            ? "You agreed to earlier words. Until you answer the new ones, nothing more of yours is looked at; the faces found so far stay."
            : "This site can look for faces in your photos, on this server, so you can name people and find them. Nothing is looked at unless you agree."}
        </p>
      </div>
      <div className="face-consent-notice-actions">
        <Link href="/people#face-consent" className="button">
          {textChanged ? "Read the new words" : "Read and answer"}
        </Link>
        <button type="button" className="secondary" onClick={putOff}>
          Not now
        </button>
      </div>
    </aside>
  );
}
