"use client";

import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { type FormEvent, useState } from "react";
import toast from "react-hot-toast";
import type { ProviderSummary } from "../oauth-providers";
import { toSafeRedirect } from "../safe-redirect";
import { describeSignInError } from "../sign-in-messages";

interface SignInFormProps {
  /** Where to go after signing in: an absolute URL on our origin, checked by the server (toSafeRedirect). */
  callbackUrl: string;
  providers: ProviderSummary[];
  initialError: string | null;
}

export function SignInForm({ callbackUrl, providers, initialError }: SignInFormProps) {
  const router = useRouter();
  const [isSubmitting, setIsSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(initialError);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setIsSubmitting(true);
    setError(null);
    const result = await signIn("credentials", {
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
      redirect: false,
      callbackUrl,
    });
    setIsSubmitting(false);
    if (!result?.ok || result.error) {
      const message = describeSignInError(result?.error ?? "Callback");
      // Said once, beside the form (an alert, so it is announced): no toast repeating it.
      setError(message ?? "Signing in did not work.");
      return;
    }
    toast.success("Signed in");
    // Checked again where the browser navigates, against the origin it is really on.
    router.replace(toSafeRedirect(callbackUrl, window.location.origin));
    router.refresh();
  }

  return (
    <>
      {error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      <form className="form" onSubmit={handleSubmit} aria-label="Sign in with e-mail and password">
        <label>
          E-mail
          <input name="email" type="email" autoComplete="username" required maxLength={254} autoFocus />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required maxLength={256} />
        </label>
        <button type="submit" disabled={isSubmitting}>
          {isSubmitting ? "Signing in…" : "Sign in"}
        </button>
      </form>
      {providers.length > 0 && (
        <>
          <p className="divider">or</p>
          <div className="provider-buttons">
            {providers.map((provider) => (
              <button
                key={provider.id}
                type="button"
                className="secondary"
                onClick={() => signIn(provider.id, { callbackUrl })}
              >
                Continue with {provider.name}
              </button>
            ))}
          </div>
        </>
      )}
    </>
  );
}
