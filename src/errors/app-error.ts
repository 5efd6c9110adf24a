/** Every error the app answers on purpose, by code. The HTTP status follows from the code alone. */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  INVALID_INPUT: 422,
  RATE_LIMITED: 429,
  REQUEST_HEADER_FIELDS_TOO_LARGE: 431,
  INTERNAL: 500,
  /** A request the server understood but does not serve (oEmbed's format=xml). */
  NOT_IMPLEMENTED: 501,
  SERVICE_UNAVAILABLE: 503,
  INSUFFICIENT_STORAGE: 507,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

// Next.js bundles instrumentation (where the worker and the storage are created) apart from the
// routes, so one process can hold two copies of this class; `instanceof` goes by this brand, which
// every copy shares, rather than by class identity.
const APP_ERROR_BRAND = Symbol.for("contact-sheet.app-error");

export class AppError extends Error {
  override name = "AppError";
  readonly [APP_ERROR_BRAND] = true;

  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && APP_ERROR_BRAND in value;
  }

  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra response headers, such as Retry-After or Allow. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}
