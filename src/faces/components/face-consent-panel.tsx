"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import toast from "react-hot-toast";
import { ApiRequestError, callApi } from "@/src/ui/api-client";
import { type ConsentAnswer, consentAnswer } from "./person-answers";

interface FaceConsentPanelProps {
  /** The admin's words (face settings). */
  text: string;
  /** Which words these are: sent back with the answer, so words changed meanwhile are read first. */
  textVersion: string;
  /** The user's answer so far to these words; null: not asked yet, or agreed to earlier words. */
  answer: ConsentAnswer["answer"];
  /** The user agreed to earlier words, since changed: asked again. */
  textChanged?: boolean;
}

/**
 * People's consent (face-consent.service.ts) on /people: not asked yet (or the words changed since
 * the user agreed), the admin's text with yes and no; answered, one line saying what that means and
 * a button to change it. Saying no when faces were found deletes them, so it is confirmed first.
 */
export function FaceConsentPanel({ text, textVersion, answer, textChanged = false }: FaceConsentPanelProps) {
  const router = useRouter();
  const [isBusy, setIsBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const hadAgreed = answer === "agreed" || textChanged;

  async function send(agreed: boolean) {
    if (!agreed && hadAgreed && !window.confirm("Stop looking for faces in your photos and delete the faces found so far? People you named and faces you drew stay.")) return;
    setIsBusy(true);
    setError(null);
    try {
      await callApi("/api/faces/consent", { method: "PUT", body: { agreed, textVersion } }, consentAnswer);
      toast.success(agreed ? "Thank you: faces in your photos will be looked for." : hadAgreed ? "Stopped: the faces found in your photos are deleted." : "Your photos will not be looked at.");
      router.refresh();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "That did not work. Try again.");
      // The words changed while the user read them: show the new ones (the message says why).
      if (failure instanceof ApiRequestError && failure.status === 409) router.refresh();
    } finally {
      setIsBusy(false);
    }
  }

  const failure = error && (
    <p className="notice error" role="alert">
      {error}
    </p>
  );

  if (answer === null) {
    return (
      <section className="face-consent-panel" id="face-consent" aria-labelledby="face-consent-title" data-testid="face-consent">
        <h2 id="face-consent-title">{textChanged ? "The words about finding faces have changed" : "Look for faces in your photos?"}</h2>
        {textChanged && (
          <p className="face-consent-changed" data-testid="face-consent-changed">
            You agreed to earlier words. Until you answer these, nothing more of yours is looked at; the faces found so far stay.
          </p>
        )}
        <p className="face-consent-text">{text}</p>
        {failure}
        <div className="face-consent-actions">
          <button type="button" onClick={() => void send(true)} disabled={isBusy}>
            Yes, look for faces
          </button>
          <button type="button" className="secondary" onClick={() => void send(false)} disabled={isBusy}>
            No, thanks
          </button>
        </div>
      </section>
    );
  }
  return (
    <div className="face-consent-status" data-testid="face-consent-status">
      <p className="muted">
        {answer === "agreed" ? "You agreed: faces in your photos are looked for on this server." : "You said no: your photos are not looked at for faces."}
      </p>
      {failure}
      <button type="button" className="secondary" onClick={() => void send(answer !== "agreed")} disabled={isBusy}>
        {answer === "agreed" ? "Stop and delete the faces found" : "Look for faces after all"}
      </button>
    </div>
  );
}
