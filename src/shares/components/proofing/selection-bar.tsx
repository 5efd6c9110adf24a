"use client";

import { useState } from "react";
import { useProofing } from "./proofing-provider";

/**
 * The bar at the bottom of a proofing link's pages: "7 of 20 picked" (or "7 picked" without a
 * limit), "Send my selection", and after sending "Sent — you can change your picks until <owner>
 * locks the selection"; once locked, read-only. Renders nothing outside a ProofingProvider, on a
 * link without picks, or before the visitor picked or commented anything (and sent nothing).
 */
export function SelectionBar() {
  const proofing = useProofing();
  const [isSending, setIsSending] = useState(false);
  if (!proofing || proofing.status !== "ready") return null;
  const { pickCount, pickLimit, locked, sentAt, ownerName, hasUnsentChanges } = proofing;
  if (proofing.visitorName === null && pickCount === 0) return null;
  const count = pickLimit === null ? `${pickCount} picked` : `${pickCount} of ${pickLimit} picked`;

  let status: string;
  if (locked) status = sentAt ? `${ownerName} has locked the selection. Thank you!` : `${ownerName} has locked the selection.`;
  else if (sentAt && !hasUnsentChanges) status = `Sent — you can change your picks until ${ownerName} locks the selection.`;
  else if (sentAt) status = "You changed your picks since sending them.";
  else status = "When you are done, send your selection.";

  return (
    <aside className="selection-bar" aria-label="Your selection">
      <div className="selection-bar-inner">
        <p className="selection-bar-count" aria-live="polite">
          <strong>{count}</strong>
          <span className="selection-bar-status">{status}</span>
        </p>
        {!locked && (
          <button
            type="button"
            disabled={isSending || !hasUnsentChanges}
            aria-busy={isSending}
            onClick={async () => {
              setIsSending(true);
              await proofing.sendSelection();
              setIsSending(false);
            }}
          >
            {sentAt ? "Send again" : "Send my selection"}
          </button>
        )}
      </div>
    </aside>
  );
}
