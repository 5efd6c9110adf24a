import { describe, expect, it } from "vitest";
import { EnvironmentError, parseEnvironment } from "./env";

const SECRET = "a-secret-that-is-long-enough-0123456789";

describe("parseEnvironment", () => {
  it("fills in defaults and treats empty strings as unset", () => {
    const env = parseEnvironment({ NEXTAUTH_SECRET: SECRET, DATABASE_URL: "", ANALYTICS_SCRIPT_URL: "", OAUTH_ALLOW_SIGNUP: "", MAX_UNFINISHED_UPLOADS: "" });
    expect(env.NEXTAUTH_URL).toBe("http://localhost:3000");
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.ANALYTICS_SCRIPT_URL).toBeUndefined();
    expect(env.OAUTH_ALLOW_SIGNUP).toBe(false);
    expect(env.SIGNIN_MAX_FAILURES_PER_ACCOUNT).toBe(5);
    expect(env.MAX_UNFINISHED_UPLOADS).toBe(20);
  });

  it.each([
    [{}, "NEXTAUTH_SECRET is not set"],
    [{ NEXTAUTH_SECRET: "short" }, "NEXTAUTH_SECRET is too short"],
    [{ NEXTAUTH_SECRET: SECRET, EMAIL_SERVER: "smtp://x" }, "EMAIL_SERVER is set"],
    [{ NEXTAUTH_SECRET: SECRET, DATABASE_URL: "mysql://x" }, "DATABASE_URL must start with postgres://"],
    [{ NEXTAUTH_SECRET: SECRET, ADMIN_EMAIL: "a@b.c" }, "Set both ADMIN_EMAIL and ADMIN_PASSWORD"],
    [{ NEXTAUTH_SECRET: SECRET, GITHUB_ID: "id" }, "Set both GITHUB_ID / GITHUB_SECRET"],
    [{ NEXTAUTH_SECRET: SECRET, OIDC_CLIENT_ID: "id", OIDC_CLIENT_SECRET: "s" }, "set OIDC_ISSUER too"],
    [{ NEXTAUTH_SECRET: SECRET, MAX_UNFINISHED_UPLOADS: "0" }, "MAX_UNFINISHED_UPLOADS"],
  ])("refuses %o with a message naming the variable", (source, message) => {
    expect(() => parseEnvironment(source)).toThrow(EnvironmentError);
    expect(() => parseEnvironment(source)).toThrow(message);
  });
});
