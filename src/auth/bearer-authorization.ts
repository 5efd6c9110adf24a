/** What an `Authorization` header says about API-token authentication. */
export type BearerAuthorization =
  /** No header, or another scheme (such as Basic from a reverse proxy): the session cookie decides. */
  | { kind: "absent" }
  /** `Bearer <credentials>` with credentials of the RFC 6750 b64token shape. */
  | { kind: "bearer"; credentials: string }
  /** The Bearer scheme with nothing usable after it: empty, too long, or characters a token never has. */
  | { kind: "malformed" };

// Our tokens are 46 characters; anything much longer is not one of them and is not worth hashing.
const MAXIMUM_BEARER_LENGTH = 256;
const BEARER_SCHEME = "bearer";
// RFC 6750 section 2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * Reads an `Authorization` header value. Only the Bearer scheme (any letter case) means "an API
 * token"; other schemes are left alone so a site behind HTTP Basic auth still works with cookies.
 */
export function readBearerAuthorization(value: string | null): BearerAuthorization {
  if (value === null) return { kind: "absent" };
  const trimmed = value.trim();
  const scheme = trimmed.slice(0, BEARER_SCHEME.length);
  const separator = trimmed.charAt(BEARER_SCHEME.length);
  if (scheme.toLowerCase() !== BEARER_SCHEME || (separator !== "" && separator !== " " && separator !== "\t")) {
    return { kind: "absent" };
  }
  if (trimmed.length > MAXIMUM_BEARER_LENGTH) return { kind: "malformed" };
  const credentials = trimmed.slice(BEARER_SCHEME.length).trim();
  if (!B64TOKEN.test(credentials)) return { kind: "malformed" };
  return { kind: "bearer", credentials };
}

interface HeaderReader {
  get(name: string): string | null;
}

/** Whether the request tries API-token authentication at all (well-formed or not). */
export function hasBearerAuthorization(headers: HeaderReader): boolean {
  return readBearerAuthorization(headers.get("authorization")).kind !== "absent";
}
