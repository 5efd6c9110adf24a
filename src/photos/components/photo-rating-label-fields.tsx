"use client";

import { useState } from "react";
import { MAXIMUM_RATING, PHOTO_LABELS, type PhotoLabel } from "@/src/db/database";
import { LABEL_NAMES } from "./photo-label-names";

const STAR_CHOICES = Array.from({ length: MAXIMUM_RATING + 1 }, (_, stars) => stars);

/**
 * The owner's stars and colour label, as two groups of native radio buttons: a screen reader
 * names each choice ("3 stars", "Red"), arrow keys move within a group and Tab leaves it, as for
 * any radio group. The stars up to the chosen one are filled, so the picker reads like Lightroom's.
 * Only the owner and admins ever see these (the metadata policy); the hint says so.
 */
export function PhotoRatingLabelFields({ fieldId, rating, label, onRatingChange, onLabelChange }: {
  fieldId: string;
  rating: number;
  label: PhotoLabel | null;
  onRatingChange: (rating: number) => void;
  onLabelChange: (label: PhotoLabel | null) => void;
}) {
  const [hovered, setHovered] = useState<number | null>(null);
  const shown = hovered ?? rating;
  return (
    <div className="photo-editor-pair">
      <fieldset className="photo-editor-group" aria-describedby={`${fieldId}-notes-hint`}>
        <legend>Rating</legend>
        <div className="rating-picker" onMouseLeave={() => setHovered(null)}>
          {STAR_CHOICES.map((stars) => (
            <label
              key={stars}
              className={stars === 0 ? "rating-picker-none" : "rating-picker-star"}
              data-filled={stars > 0 && stars <= shown ? "true" : undefined}
              onMouseEnter={() => setHovered(stars)}
            >
              <input type="radio" name="rating" value={stars} checked={rating === stars} onChange={() => onRatingChange(stars)} className="visually-hidden" />
              {stars === 0 ? (
                <>
                  <span aria-hidden="true">None</span>
                  <span className="visually-hidden">No rating</span>
                </>
              ) : (
                <>
                  <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                    <path d="M12 2.8l2.8 5.9 6.4.8-4.7 4.4 1.2 6.4L12 17.2l-5.7 3.1 1.2-6.4-4.7-4.4 6.4-.8z" />
                  </svg>
                  <span className="visually-hidden">{stars === 1 ? "1 star" : `${stars} stars`}</span>
                </>
              )}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className="photo-editor-group" aria-describedby={`${fieldId}-notes-hint`}>
        <legend>Colour label</legend>
        <div className="label-picker">
          {[null, ...PHOTO_LABELS].map((choice) => (
            <label key={choice ?? "none"} className="label-picker-choice" title={choice ? LABEL_NAMES[choice] : "No label"}>
              <input type="radio" name="label" value={choice ?? ""} checked={label === choice} onChange={() => onLabelChange(choice)} className="visually-hidden" />
              <span className="label-swatch" data-label={choice ?? "none"} aria-hidden="true" />
              <span className="visually-hidden">{choice ? LABEL_NAMES[choice] : "No label"}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <p id={`${fieldId}-notes-hint`} className="field-hint photo-editor-notes-hint">
        Your own notes for sorting: only you and admins see them, and only you can search by them (rating:&gt;=4, label:red).
      </p>
    </div>
  );
}
