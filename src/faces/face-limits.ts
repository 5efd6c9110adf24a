// The people feature's limits, client-safe (no imports): the settings form and the API schemas share them.

/** At most this many faces per photo are kept (the strongest); a crowd beyond it is said to be capped. */
export const MAX_FACES_PER_PHOTO = 100;

/** The strongest MAX_FACES_PER_PHOTO faces, and whether more were found. */
export function capFaces<Face extends { score: number }>(faces: readonly Face[]): { faces: Face[]; isCapped: boolean } {
  const strongest = [...faces].sort((a, b) => b.score - a.score);
  return { faces: strongest.slice(0, MAX_FACES_PER_PHOTO), isCapped: strongest.length > MAX_FACES_PER_PHOTO };
}

/** The settings' bounds on the match threshold (face-clustering.ts says how the default was measured). */
export const MATCH_THRESHOLD_RANGE = { minimum: 0.2, maximum: 0.6 } as const;

/**
 * A face drawn by hand is at least this share of the photo's width and height: a smaller box is a
 * slip of the finger, not a face anyone could recognise (and a zero-size box would crop nothing).
 */
export const MIN_MANUAL_FACE_SIDE = 0.01;

/** The consent text each user is asked (face settings): a short paragraph, not a contract. */
export const CONSENT_TEXT_MAX_LENGTH = 2000;
