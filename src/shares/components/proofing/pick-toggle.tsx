"use client";

import { useProofing } from "./proofing-provider";

/**
 * The heart that picks a photo. `variant="tile"` is a round button for the corner of a grid tile
 * (the tile must be `position: relative`; the button places itself top right); `"page"` is a
 * labelled button for the photo page. `photoName` is what a screen reader says for the photo
 * (photoAccessibleName). Renders nothing outside a ProofingProvider or on a link without picks.
 */
export function PickToggle({ photoId, photoName, variant = "tile" }: { photoId: string; photoName: string; variant?: "tile" | "page" }) {
  const proofing = useProofing();
  if (!proofing || proofing.status !== "ready") return null;
  const { picked } = proofing.feedbackFor(photoId);
  const label = picked ? `Unpick ${photoName}` : `Pick ${photoName}`;
  const atLimit = !picked && proofing.pickLimit !== null && proofing.pickCount >= proofing.pickLimit;
  return (
    <button
      type="button"
      className={`pick-toggle pick-toggle-${variant}${picked ? " is-picked" : ""}`}
      aria-pressed={picked}
      aria-label={variant === "tile" ? label : undefined}
      title={atLimit ? `You have picked ${proofing.pickCount} of ${proofing.pickLimit}` : label}
      disabled={proofing.locked}
      onClick={(event) => {
        // On a tile the button sits on a link to the photo: picking must not open it.
        event.preventDefault();
        event.stopPropagation();
        void proofing.togglePick(photoId);
      }}
    >
      <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path d="M12 20.5s-7.5-4.6-9.3-9.2C1.5 8.2 3.4 4.5 7 4.5c2 0 3.4 1.1 5 3 1.6-1.9 3-3 5-3 3.6 0 5.5 3.7 4.3 6.8-1.8 4.6-9.3 9.2-9.3 9.2z" />
      </svg>
      {variant === "page" && <span>{picked ? "Picked" : "Pick"}</span>}
    </button>
  );
}
