import type { Provider } from "next-auth/providers/index";
import GitHubProvider from "next-auth/providers/github";
import GoogleProvider from "next-auth/providers/google";
import type { Environment } from "@/src/config/env";

/** What the sign-in page needs to show a provider's button. */
export interface ProviderSummary {
  id: string;
  name: string;
}

interface OidcProfile {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  preferred_username?: string;
}

/** The OAuth providers whose env vars are set; the credentials provider is added by the caller. */
export function buildOAuthProviders(env: Environment): Provider[] {
  const providers: Provider[] = [];
  if (env.GITHUB_ID && env.GITHUB_SECRET) {
    providers.push(GitHubProvider({ clientId: env.GITHUB_ID, clientSecret: env.GITHUB_SECRET }));
  }
  if (env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET) {
    providers.push(GoogleProvider({ clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET }));
  }
  if (env.OIDC_ISSUER && env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET) {
    const issuer = env.OIDC_ISSUER.replace(/\/$/, "");
    providers.push({
      id: "oidc",
      name: env.OIDC_NAME,
      type: "oauth",
      wellKnown: `${issuer}/.well-known/openid-configuration`,
      authorization: { params: { scope: "openid email profile" } },
      idToken: true,
      checks: ["pkce", "state"],
      clientId: env.OIDC_CLIENT_ID,
      clientSecret: env.OIDC_CLIENT_SECRET,
      profile(profile: OidcProfile) {
        return {
          id: profile.sub,
          email: profile.email ?? null,
          name: profile.name ?? profile.preferred_username ?? profile.email ?? null,
        };
      },
    });
  }
  return providers;
}

export function listOAuthProviders(env: Environment): ProviderSummary[] {
  return buildOAuthProviders(env).map((provider) => ({ id: provider.id, name: provider.name }));
}

/**
 * Whether the provider vouches that the user owns this e-mail address. GitHub's provider only
 * returns a verified primary address; Google and OIDC say so in the profile.
 */
export function isProviderEmailVerified(provider: string, profile: unknown): boolean {
  if (provider === "github") return true;
  return typeof profile === "object" && profile !== null && (profile as { email_verified?: unknown }).email_verified === true;
}
