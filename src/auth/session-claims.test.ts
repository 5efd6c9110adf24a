import { describe, expect, it } from "vitest";
import { readSessionClaims } from "./session-claims";

const VALID = { kind: "session", sub: "u1", sessionId: "s1", role: "editor", sessionVersion: 2, authTime: 1_700_000_000 };

describe("readSessionClaims", () => {
  it("reads a session token's claims", () => {
    expect(readSessionClaims(VALID)).toEqual(VALID);
  });

  it.each([
    ["no token", null],
    ["another purpose", { value: "pkce-verifier" }],
    ["another kind", { ...VALID, kind: "state" }],
    ["an unknown role", { ...VALID, role: "owner" }],
    ["a missing session version", { ...VALID, sessionVersion: undefined }],
    ["a string session version", { ...VALID, sessionVersion: "2" }],
    ["no session id", { ...VALID, sessionId: undefined }],
  ])("refuses %s", (_label, token) => {
    expect(readSessionClaims(token as Record<string, unknown> | null)).toBeNull();
  });
});
