import { describe, expect, it } from "vitest";
import { hasBearerAuthorization, readBearerAuthorization } from "./bearer-authorization";

const SECRET = `cs_${"a".repeat(43)}`;

describe("readBearerAuthorization", () => {
  it.each([
    [`Bearer ${SECRET}`, SECRET],
    [`bearer ${SECRET}`, SECRET],
    [`BEARER\t${SECRET}`, SECRET],
    [`  Bearer   ${SECRET}  `, SECRET],
    ["Bearer abc.def-ghi_jkl~mno+pqr/stu==", "abc.def-ghi_jkl~mno+pqr/stu=="],
  ])("reads %j as a bearer token", (header, credentials) => {
    expect(readBearerAuthorization(header)).toEqual({ kind: "bearer", credentials });
  });

  it.each([
    ["Bearer"],
    ["Bearer "],
    ["bearer\t"],
    [`Bearer ${SECRET} extra`],
    ["Bearer =abc"],
    ["Bearer café"],
    ["Bearer 🙂"],
    ["Bearer a\u0000b"],
    [`Bearer ${"x".repeat(300)}`],
    [`Bearer ${"x".repeat(100_000)}`],
  ])("refuses %j as malformed", (header) => {
    expect(readBearerAuthorization(header)).toEqual({ kind: "malformed" });
  });

  it.each([[null], [""], ["   "], ["Basic dXNlcjpwYXNz"], ["Bearerx abc"], [`Token ${SECRET}`], ["Digest username=x"]])(
    "leaves %j to the session cookie",
    (header) => {
      expect(readBearerAuthorization(header)).toEqual({ kind: "absent" });
    },
  );

  it("answers whether a request tries a token at all", () => {
    expect(hasBearerAuthorization(new Headers({ Authorization: `Bearer ${SECRET}` }))).toBe(true);
    expect(hasBearerAuthorization(new Headers({ Authorization: "Bearer" }))).toBe(true);
    expect(hasBearerAuthorization(new Headers({ Authorization: "Basic dXNlcjpwYXNz" }))).toBe(false);
    expect(hasBearerAuthorization(new Headers())).toBe(false);
  });
});
