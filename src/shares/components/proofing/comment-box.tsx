"use client";

import { useId, useState } from "react";
import { MAX_FEEDBACK_COMMENT_LENGTH } from "../../proofing.types";
import { useProofing } from "./proofing-provider";

/**
 * The visitor's comment on one photo, for the share's photo page: a text box with Save (and
 * Remove once there is one); read-only after the owner locks. Renders nothing outside a
 * ProofingProvider or on a link without picks.
 */
export function CommentBox({ photoId }: { photoId: string }) {
  const proofing = useProofing();
  const fieldId = useId();
  const saved = proofing?.status === "ready" ? proofing.feedbackFor(photoId).comment : null;
  const [text, setText] = useState(saved ?? "");
  const [isBusy, setIsBusy] = useState(false);
  // When the stored comment changes (saved, rolled back, loaded), the box shows it.
  const [shownSaved, setShownSaved] = useState(saved);
  if (shownSaved !== saved) {
    setShownSaved(saved);
    setText(saved ?? "");
  }
  if (!proofing || proofing.status !== "ready") return null;

  if (proofing.locked) {
    return saved ? (
      <div className="proofing-comment">
        <p className="proofing-comment-label">Your comment</p>
        <blockquote className="proofing-comment-text">{saved}</blockquote>
      </div>
    ) : null;
  }

  async function save(value: string | null) {
    if (!proofing) return;
    setIsBusy(true);
    await proofing.saveComment(photoId, value);
    setIsBusy(false);
  }

  const isChanged = text.trim() !== (saved ?? "");
  return (
    <form
      className="proofing-comment"
      onSubmit={(event) => {
        event.preventDefault();
        void save(text);
      }}
    >
      <label className="proofing-comment-label" htmlFor={fieldId}>
        Comment for the photographer
      </label>
      <textarea
        id={fieldId}
        rows={3}
        maxLength={MAX_FEEDBACK_COMMENT_LENGTH}
        value={text}
        placeholder="Crop tighter, brighter, black and white…"
        onChange={(event) => setText(event.target.value)}
      />
      <div className="proofing-comment-actions">
        {saved && (
          <button type="button" className="button-ghost button-small" disabled={isBusy} onClick={() => void save(null)}>
            Remove
          </button>
        )}
        <button type="submit" className="secondary button-small" disabled={isBusy || !isChanged || text.trim() === ""} aria-busy={isBusy}>
          {saved ? "Save changes" : "Save comment"}
        </button>
      </div>
    </form>
  );
}
