/** Recognises a unique-constraint violation by its driver code, never by its message. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null || !("code" in error)) return false;
  const code = (error as { code: unknown }).code;
  // SQLite (better-sqlite3) and PostgreSQL (pg) spell it differently.
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "23505";
}

/** The code this app gives a PostgreSQL connection that could not be had in time (pg-pool's own error has none). */
export const POOL_CONNECT_TIMEOUT = "POOL_CONNECT_TIMEOUT";

/** The code this app gives a query that failed because its PostgreSQL connection broke under it (pg's own error has none). */
export const CONNECTION_LOST = "CONNECTION_LOST";

/**
 * PostgreSQL's own codes for a server going away: the connection exception class (08) and the
 * operator ending connections (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now).
 */
const SERVER_GONE_CODES = new Set(["08000", "08003", "08006", "08001", "08004", "57P01", "57P02", "57P03"]);

function codeOf(error: unknown): unknown {
  return typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
}

/**
 * The database is busy or out of reach, worth a retry: SQLite still locked after its timeout, no
 * PostgreSQL connection to be had (refused, the server starting up or out of connection slots, or
 * none free in the pool in time), or the connection a query ran on broken by a server stop.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = codeOf(error);
  if (typeof code === "string" && SERVER_GONE_CODES.has(code)) return true;
  // ECONNRESET and EPIPE: the socket under a PostgreSQL connection was cut (the server stopped, the network went).
  return (
    code === "SQLITE_BUSY" ||
    code === "ECONNREFUSED" ||
    code === "ECONNRESET" ||
    code === "EPIPE" ||
    code === "53300" ||
    code === POOL_CONNECT_TIMEOUT ||
    code === CONNECTION_LOST
  );
}

/**
 * The database refused a value the request sent (PostgreSQL's class 22, data exception: a NUL in
 * text is 22021, a malformed number or date 22P02/22007, a value too long 22001). The input layer
 * refuses these first (src/validation/input-text.ts); this keeps one that slips past a 4xx.
 */
export function isRefusedValue(error: unknown): boolean {
  const code = codeOf(error);
  return typeof code === "string" && /^22[0-9A-Z]{3}$/.test(code);
}
