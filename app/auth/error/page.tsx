import type { Metadata } from "next";
import Link from "next/link";
import { DEFAULT_SIGN_IN_MESSAGE, describeSignInError } from "@/src/auth/sign-in-messages";

export const metadata: Metadata = { title: "Sign-in problem" };

interface AuthErrorPageProps {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

// next-auth's pages.error: where sign-ins our callbacks refuse land (AccessDenied,
// OAuthAccountNotLinked) and configuration errors; next-auth sends its other sign-in errors
// (OAuthCallback, Callback, CredentialsSignin...) to the sign-in page, which shows the same sentences.
export default async function AuthErrorPage({ searchParams }: AuthErrorPageProps) {
  const { error } = await searchParams;
  const message = describeSignInError(typeof error === "string" ? error : null) ?? DEFAULT_SIGN_IN_MESSAGE;
  return (
    <section className="card auth-card">
      <h1>Could not sign you in</h1>
      <p className="notice notice-error" role="alert" data-testid="auth-error-message">
        {message}
      </p>
      <p className="auth-card-actions">
        <Link href="/signin" className="button secondary">
          Back to sign in
        </Link>
      </p>
    </section>
  );
}
