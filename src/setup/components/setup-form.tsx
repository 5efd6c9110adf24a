"use client";

import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { type FormEvent, useState } from "react";
import toast from "react-hot-toast";
import { readErrorMessage } from "@/src/ui/api-client";
import { PasswordField } from "@/src/ui/password-field";

export function SetupForm({ token }: { token: string }) {
  const router = useRouter();
  const [isSubmitting, setIsSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get("email") ?? "");
    const password = String(form.get("password") ?? "");
    setIsSubmitting(true);
    setError(null);
    const response = await fetch("/api/setup", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token, email, name: String(form.get("name") ?? ""), password }),
    });
    if (!response.ok) {
      setIsSubmitting(false);
      setError(await readErrorMessage(response));
      return;
    }
    toast.success("Admin account created");
    await signIn("credentials", { email, password, redirect: false });
    router.replace("/admin");
    router.refresh();
  }

  return (
    <form className="form" onSubmit={handleSubmit} aria-label="Create the first admin">
      {error && (
        <p className="notice notice-error" role="alert">
          {error}
        </p>
      )}
      <label>
        Name
        <input name="name" required maxLength={100} autoComplete="name" />
      </label>
      <label>
        E-mail
        <input name="email" type="email" required maxLength={254} autoComplete="username" />
      </label>
      <PasswordField name="password" label="Password" hint="At least 10 characters." />
      <button type="submit" disabled={isSubmitting}>
        {isSubmitting ? "Creating…" : "Create admin account"}
      </button>
    </form>
  );
}
