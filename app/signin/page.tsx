import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/src/auth/components/sign-in-form";
import { findCurrentViewer } from "@/src/auth/current-user";
import { listOAuthProviders } from "@/src/auth/oauth-providers";
import { toSafeRedirect } from "@/src/auth/safe-redirect";
import { describeSignInError } from "@/src/auth/sign-in-messages";
import { getEnv } from "@/src/config/env";

export const metadata: Metadata = { title: "Sign in" };

interface SignInPageProps {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

// next-auth's pages.signIn: the branded sign-in page.
export default async function SignInPage({ searchParams }: SignInPageProps) {
  const params = await searchParams;
  const env = getEnv();
  // Absolute, on our origin: a path handed to a redirect or a router could still name another host.
  const callbackUrl = toSafeRedirect(params.callbackUrl, env.NEXTAUTH_URL);
  if ((await findCurrentViewer()).kind === "user") redirect(callbackUrl);
  const errorCode = typeof params.error === "string" ? params.error : null;
  return (
    <section className="card auth-card">
      <h1>Sign in to Contact Sheet</h1>
      <p className="muted">Members see the photos shared with them; editors and admins manage the gallery.</p>
      <SignInForm callbackUrl={callbackUrl} providers={listOAuthProviders(env)} initialError={describeSignInError(errorCode)} />
    </section>
  );
}
