/** The `code` of a Node.js or driver error (ENOENT, ENOSPC, ECONNREFUSED…), if it has one. */
export function errorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  return typeof error.code === "string" ? error.code : undefined;
}

/** `error` with `cause` attached, for the log: the answer says what failed, the cause says why. */
export function causedBy<T extends Error>(error: T, cause: unknown): T {
  error.cause = cause;
  return error;
}
