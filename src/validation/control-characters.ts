// Kept apart from input-text.ts (which builds on zod) so browser code that cleans text, such as the
// tag input, does not carry zod (30 KB compressed) onto the pages it is on. Client-safe.

/** C0 controls and DEL: never part of a title, name, identifier or log line (they reach headers and logs). */
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;
