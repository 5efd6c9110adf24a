"use client";

import { type FormEvent, useId, useState } from "react";
import { readAnswer, readErrorMessage } from "@/src/ui/api-client";
import { Dialog } from "@/src/ui/dialog";
import type { VisitorResponse } from "../../proofing-api.schemas";
import { visitorAnswer } from "../share-visitor-answers";
import { MAX_VISITOR_NAME_LENGTH } from "../../proofing.types";

/**
 * Asks a visitor for their name (and, if they like, an e-mail address) the first time they pick
 * or comment, and makes them a visitor of the link (POST /s/[key]/api/visitor). `onDone` gets the
 * answer, or null when they cancel. Rendered by ProofingProvider; not used on its own.
 */
export function VisitorNameDialog({ open, api, onDone }: { open: boolean; api: string; onDone: (answer: VisitorResponse | null) => void }) {
  const nameId = useId();
  const emailId = useId();
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setIsBusy(true);
    setError(null);
    try {
      const response = await fetch(`${api}/visitor`, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name, email: email.trim() || null }),
      });
      if (!response.ok) {
        setError(await readErrorMessage(response));
        return;
      }
      onDone(await readAnswer(response, visitorAnswer));
    } catch {
      setError("Your name could not be saved. Check your connection and try again.");
    } finally {
      setIsBusy(false);
    }
  }

  return (
    <Dialog open={open} title="Who is picking?" onClose={() => onDone(null)}>
      <form className="form proofing-name-form" onSubmit={(event) => void submit(event)}>
        <p className="dialog-text">Your name goes with your picks and comments, so the photographer knows whose they are.</p>
        <div className="field">
          <label htmlFor={nameId}>Your name</label>
          <input id={nameId} name="name" required maxLength={MAX_VISITOR_NAME_LENGTH} autoComplete="name" value={name} onChange={(event) => setName(event.target.value)} autoFocus />
        </div>
        <div className="field">
          <label htmlFor={emailId}>
            E-mail <span className="muted">(optional)</span>
          </label>
          <input id={emailId} name="email" type="email" autoComplete="email" value={email} onChange={(event) => setEmail(event.target.value)} />
        </div>
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" className="secondary" onClick={() => onDone(null)}>
            Cancel
          </button>
          <button type="submit" disabled={isBusy} aria-busy={isBusy}>
            Continue
          </button>
        </div>
      </form>
    </Dialog>
  );
}
