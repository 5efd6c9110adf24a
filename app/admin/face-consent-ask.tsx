import { cookies } from "next/headers";
import type { Viewer } from "@/src/access/viewer";
import { getDb } from "@/src/db/client";
import { FaceConsentNotice } from "@/src/faces/components/face-consent-notice";
import { FACE_CONSENT_LATER_COOKIE } from "@/src/faces/face-consent-later";
import { shouldAskFaceConsent } from "@/src/faces/face-consent.service";

/**
 * The library's and the upload page's question about people (issue 32): the notice while people is
 * on and the user has not answered the words asked now, unless this browser put it off for them.
 * The page reads the cookie (nothing below the page reads one) and the service decides.
 */
export async function FaceConsentAsk({ viewer }: { viewer: Viewer }) {
  const consent = await shouldAskFaceConsent(getDb(), viewer, (await cookies()).get(FACE_CONSENT_LATER_COOKIE)?.value);
  return consent && <FaceConsentNotice textVersion={consent.textVersion} textChanged={consent.textChanged} />;
}
