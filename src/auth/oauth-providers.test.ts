import { describe, expect, it } from "vitest";
import { parseEnvironment } from "@/src/config/env";
import { isProviderEmailVerified, listOAuthProviders } from "./oauth-providers";

const SECRET = "a-secret-that-is-long-enough-0123456789";

describe("listOAuthProviders", () => {
  it("lists none when no provider is configured", () => {
    expect(listOAuthProviders(parseEnvironment({ NEXTAUTH_SECRET: SECRET }))).toEqual([]);
  });

  it("lists GitHub, Google and the OIDC provider when their variables are set", () => {
    const env = parseEnvironment({
      NEXTAUTH_SECRET: SECRET,
      GITHUB_ID: "github-id",
      GITHUB_SECRET: "github-secret",
      GOOGLE_CLIENT_ID: "google-id",
      GOOGLE_CLIENT_SECRET: "google-secret",
      OIDC_ISSUER: "https://id.example.test/realms/photos",
      OIDC_CLIENT_ID: "oidc-id",
      OIDC_CLIENT_SECRET: "oidc-secret",
      OIDC_NAME: "Club login",
    });
    expect(listOAuthProviders(env)).toEqual([
      { id: "github", name: "GitHub" },
      { id: "google", name: "Google" },
      { id: "oidc", name: "Club login" },
    ]);
  });
});

describe("isProviderEmailVerified", () => {
  it("trusts only an explicit email_verified from Google and OIDC", () => {
    expect(isProviderEmailVerified("google", { email_verified: true })).toBe(true);
    expect(isProviderEmailVerified("google", { email_verified: "true" })).toBe(false);
    expect(isProviderEmailVerified("oidc", {})).toBe(false);
    expect(isProviderEmailVerified("github", {})).toBe(true);
  });
});
