// Client-safe: the limits the visitor's components and the proofing API share (the API's Zod
// schemas import the users domain's e-mail rule, which must not reach a browser bundle).

export const MAX_VISITOR_NAME_LENGTH = 80;
export const MAX_FEEDBACK_COMMENT_LENGTH = 2000;
