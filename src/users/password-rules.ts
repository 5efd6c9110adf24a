// How long a password may be: the API's schema, the forms and the share links' check all say the
// same. Client-safe (no argon2 here), so the browser can import the users' contract.

export const MINIMUM_PASSWORD_LENGTH = 10;
export const MAXIMUM_PASSWORD_LENGTH = 256;
