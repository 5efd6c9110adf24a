"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import toast from "react-hot-toast";
import { callApi } from "@/src/ui/api-client";
import { type ConsentAnswer, consentAnswer } from "./person-answers";

interface FaceConsentPanelProps {
  /** The admin's words (face settings). */
  text: string;
  /** The user's answer so far; null: not asked yet. */
  answer: ConsentAnswer["answer"];
}

/**
 * People's consent (face-consent.service.ts) on /people: not asked yet, the admin's text with yes
 * and no; answered, one line saying what that means and a button to change it. Saying no after
 * agreeing deletes the faces found, so it is confirmed first.
 */
export function FaceConsentPanel({ text, answer }: FaceConsentPanelProps) {
  const router = useRouter();
  const [isBusy, setIsBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function send(agreed: boolean) {
    if (!agreed && answer === "agreed" && !window.confirm("Stop looking for faces in your photos and delete the faces found so far? People you named and faces you drew stay.")) return;
    setIsBusy(true);
    setError(null);
    try {
      await callApi("/api/faces/consent", { method: "PUT", body: { agreed } }, consentAnswer);
      toast.success(agreed ? "Thank you: faces in your photos will be looked for." : answer === "agreed" ? "Stopped: the faces found in your photos are deleted." : "Your photos will not be looked at.");
      router.refresh();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "That did not work. Try again.");
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
      <section className="face-consent-panel" aria-labelledby="face-consent-title" data-testid="face-consent">
        <h2 id="face-consent-title">Look for faces in your photos?</h2>
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
