// "Not now" on the consent notice (components/face-consent-notice.tsx): the browser remembers which
// words it was put off for, in a cookie the library and upload pages read before they render, so
// a user who put it off is not shown it again (not even for a moment) until the words change. It
// answers nothing: not asked yet still counts as no, and /people still asks.
// Plain constants, for the page (server) and the notice (browser) alike.

export const FACE_CONSENT_LATER_COOKIE = "cs_face_consent_later";

/** How long "not now" lasts before the notice comes back: a month. */
export const FACE_CONSENT_LATER_SECONDS = 30 * 24 * 60 * 60;
