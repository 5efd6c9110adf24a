/** The longest name a person may be given (zod-free, so the person editor's page can import it). */
export const PERSON_NAME_MAX_LENGTH = 100;
