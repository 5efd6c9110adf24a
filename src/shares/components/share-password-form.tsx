"use client";

import { type FormEvent, useState } from "react";
import { readErrorMessage } from "@/src/ui/api-client";
import { describePasswordProblem as describeProblem } from "../share-refusal-words";


/**
 * The password form of a link. It posts (never GET: the password must not travel in a URL) to
 * /s/[key]/api/password and works without JavaScript (303 back to the page, with the problem in
 * the query); with JavaScript it sends JSON and says what went wrong without reloading.
 */
export function SharePasswordForm({
  shareKey,
  next,
  initialProblem,
  initialRetryAfter,
}: {
  shareKey: string;
  next: string;
  initialProblem: string | null;
  initialRetryAfter: number | null;
}) {
  const [problem, setProblem] = useState(describeProblem(initialProblem, initialRetryAfter));
  const [isSubmitting, setIsSubmitting] = useState(false);
  const action = `/s/${shareKey}/api/password`;

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get("password") ?? "");
    setIsSubmitting(true);
    try {
      const response = await fetch(action, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ password }), credentials: "same-origin" });
      if (response.status === 204) {
        // A whole new document: the layout above reads the new grant.
        window.location.assign(next);
        return;
      }
      if (response.status === 429) {
        setProblem(describeProblem("limited", Number(response.headers.get("Retry-After")) || null));
      } else if (response.status === 401) {
        // Wrong, or the link closed meanwhile: a reload shows which.
        if ((await readErrorMessage(response)) === "That password is not right.") setProblem(describeProblem("wrong", null));
        else window.location.assign(next);
      } else {
        setProblem("Something went wrong. Try again in a moment.");
      }
    } catch {
      setProblem("The server could not be reached. Check your connection and try again.");
    }
    setIsSubmitting(false);
  }

  return (
    <form className="form share-password-form" method="post" action={action} onSubmit={handleSubmit} aria-label="Enter the link's password">
      {problem && (
        <p className="notice error" role="alert" data-testid="share-password-problem">
          {problem}
        </p>
      )}
      <input type="hidden" name="next" value={next} />
      <label>
        Password
        <input name="password" type="password" autoComplete="current-password" required maxLength={256} autoFocus data-testid="share-password" />
      </label>
      <button type="submit" disabled={isSubmitting}>
        {isSubmitting ? "Checking…" : "View photos"}
      </button>
    </form>
  );
}
