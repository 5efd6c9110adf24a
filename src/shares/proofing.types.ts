// Client-safe: the limits the visitor's components and the proofing API share (the API's Zod
// schemas import the users domain's e-mail rule, which must not reach a browser bundle).

export const MAX_VISITOR_NAME_LENGTH = 80;
export const MAX_FEEDBACK_COMMENT_LENGTH = 2000;

// The caps on what one link's visitors can create (SECURITY.md 63); past them, a clear 409.
// A proofing link goes to a client, a couple, a family or a small team: a hundred named visitors
// is a whole wedding party, and past that the owner's selections page stops being readable.
export const MAX_VISITORS_PER_SHARE = 100;
// One admitted browser is one person, or a couple passing a laptop round; more names than this
// from one browser is a script, each name with its own pick allowance.
export const MAX_VISITORS_PER_GRANT = 5;
// Every visitor's picks together: the owner's selections page and its CSV read them all at once.
// A hundred visitors picking fifty each; a pick limit per visitor does not bound this on its own.
export const MAX_PICKS_PER_SHARE = 5000;
