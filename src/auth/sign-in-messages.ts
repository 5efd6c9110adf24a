/**
 * next-auth's error codes (and our RateLimited) as sentences a person understands. Shown on the
 * sign-in page and the auth error page.
 */
const MESSAGES: Record<string, string> = {
  CredentialsSignin: "That e-mail and password do not match an active account. Check them and try again.",
  RateLimited: "Too many sign-in attempts. Wait a few minutes, then try again.",
  OAuthAccountNotLinked:
    "An account with this e-mail address already exists here, and the provider did not confirm the address. " +
    "Sign in the way you did before (for example with your password).",
  AccessDenied: "This account may not sign in here. Ask the site's admin to invite you, or to re-enable your account.",
  OAuthSignin: "We could not start signing you in with that provider. Try again in a moment.",
  OAuthCallback: "The provider's answer could not be checked, so you are not signed in. Try again.",
  OAuthCreateAccount: "We could not create your account from that provider. Try again, or ask the site's admin.",
  Callback: "Signing in did not finish. Try again.",
  Configuration: "Sign-in is not set up correctly on this server. The site's admin will find details in the server log.",
  Verification: "This sign-in link has expired or was already used.",
  SessionRequired: "Sign in to see this page.",
};

export const DEFAULT_SIGN_IN_MESSAGE = "Signing in did not work. Try again.";

export function describeSignInError(code: string | null | undefined): string | null {
  if (!code) return null;
  return MESSAGES[code] ?? DEFAULT_SIGN_IN_MESSAGE;
}
