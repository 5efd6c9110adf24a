import { describe, expect, it } from "vitest";
import { CONNECTION_LOST, isDatabaseUnavailable, isRefusedValue, isUniqueViolation, POOL_CONNECT_TIMEOUT } from "./errors";

const withCode = (code: string, message = "whatever the driver says") => Object.assign(new Error(message), { code });

describe("database errors, by code and never by message", () => {
  it("a value PostgreSQL refused (class 22) is the request's fault", () => {
    expect(isRefusedValue(withCode("22021", 'invalid byte sequence for encoding "UTF8": 0x00'))).toBe(true);
    expect(isRefusedValue(withCode("22P02"))).toBe(true);
    expect(isRefusedValue(withCode("23505"))).toBe(false);
    expect(isRefusedValue(new Error('invalid byte sequence for encoding "UTF8": 0x00'))).toBe(false);
  });

  it("busy, refused or out of connections is worth a retry; the pool's timeout has a code of its own", () => {
    for (const code of ["SQLITE_BUSY", "ECONNREFUSED", "ECONNRESET", "EPIPE", "57P01", "57P03", "08006", "53300", POOL_CONNECT_TIMEOUT, CONNECTION_LOST]) expect(isDatabaseUnavailable(withCode(code)), code).toBe(true);
    expect(isDatabaseUnavailable(new Error("timeout exceeded when trying to connect"))).toBe(false);
    expect(isDatabaseUnavailable(withCode("22021"))).toBe(false);
  });

  it("still knows a unique violation on both databases", () => {
    expect(isUniqueViolation(withCode("23505"))).toBe(true);
    expect(isUniqueViolation(withCode("SQLITE_CONSTRAINT_UNIQUE"))).toBe(true);
  });
});
