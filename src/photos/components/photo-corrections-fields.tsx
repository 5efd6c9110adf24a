"use client";

import type { PhotoRotation } from "@/src/db/database";
import type { PhotoDetail } from "../photos.service";
import { splitTakenAt, turn, UTC_OFFSETS } from "./photo-corrections";

/**
 * The photo editor's corrections of what the file says or lacks: when it was taken (the camera's
 * local time, and the time zone if known), where (latitude and longitude; a map is for later), and
 * which way up. Uncontrolled inputs read by the editor's form on save, except the rotation, which
 * the editor holds (`rotation`, `onRotate`) and previews by turning the thumbnail.
 */
export function PhotoCorrectionsFields({
  photo,
  fieldId,
  rotation,
  onRotate,
}: {
  photo: PhotoDetail;
  fieldId: string;
  rotation: PhotoRotation;
  onRotate: (rotation: PhotoRotation) => void;
}) {
  const taken = splitTakenAt(photo.takenAt);
  // A stored offset outside the usual list (a camera's odd one) stays selectable.
  const offsets: string[] = taken.offset && !(UTC_OFFSETS as readonly string[]).includes(taken.offset) ? [...UTC_OFFSETS, taken.offset] : [...UTC_OFFSETS];
  const thumbnail = photo.variants.find((variant) => variant.format === "jpeg");
  // The preview turns by what is not saved yet: the thumbnail already shows the saved rotation.
  const pendingTurn = (rotation - photo.rotation + 360) % 360;
  return (
    <>
      <fieldset className="photo-editor-group">
        <legend>Date taken</legend>
        <div className="photo-editor-pair">
          <div className="field">
            <label htmlFor={`${fieldId}-taken-at`}>Date and time</label>
            <input
              id={`${fieldId}-taken-at`}
              name="takenAtLocal"
              type="datetime-local"
              step={1}
              min="1826-01-01T00:00"
              max="2200-12-31T23:59:59"
              defaultValue={taken.local}
              aria-describedby={`${fieldId}-taken-at-hint`}
              data-testid="editor-taken-at"
            />
          </div>
          <div className="field">
            <label htmlFor={`${fieldId}-offset`}>Time zone</label>
            <select id={`${fieldId}-offset`} name="takenAtOffset" defaultValue={taken.offset} data-testid="editor-taken-at-offset">
              <option value="">Not known</option>
              {offsets.map((offset) => (
                <option key={offset} value={offset}>
                  UTC{offset === "+00:00" ? "" : offset.replace(/^([+-])0?/, "$1").replace(/:00$/, "")}
                </option>
              ))}
            </select>
          </div>
        </div>
        <p id={`${fieldId}-taken-at-hint`} className="field-hint">
          The local time where it was taken, as the camera&apos;s clock would show it. Empty: the date is unknown.
        </p>
      </fieldset>

      <fieldset className="photo-editor-group">
        <legend>Location</legend>
        <div className="photo-editor-pair">
          <div className="field">
            <label htmlFor={`${fieldId}-latitude`}>Latitude</label>
            <input
              id={`${fieldId}-latitude`}
              name="latitude"
              type="number"
              inputMode="decimal"
              step="any"
              min={-90}
              max={90}
              placeholder="32.6507"
              defaultValue={photo.location?.latitude ?? ""}
              aria-describedby={`${fieldId}-location-hint`}
              data-testid="editor-latitude"
            />
          </div>
          <div className="field">
            <label htmlFor={`${fieldId}-longitude`}>Longitude</label>
            <input
              id={`${fieldId}-longitude`}
              name="longitude"
              type="number"
              inputMode="decimal"
              step="any"
              min={-180}
              max={180}
              placeholder="-16.9084"
              defaultValue={photo.location?.longitude ?? ""}
              aria-describedby={`${fieldId}-location-hint`}
              data-testid="editor-longitude"
            />
          </div>
        </div>
        <p id={`${fieldId}-location-hint`} className="field-hint">
          Decimal degrees: south and west are negative. Empty both to remove the location.
        </p>
        <div className="photo-editor-pair">
          <div className="field">
            <label htmlFor={`${fieldId}-place-city`}>City or town</label>
            <input
              id={`${fieldId}-place-city`}
              name="placeCity"
              type="text"
              maxLength={100}
              autoComplete="off"
              defaultValue={photo.place?.city ?? ""}
              aria-describedby={`${fieldId}-place-hint`}
              data-testid="editor-place-city"
            />
          </div>
          <div className="field">
            <label htmlFor={`${fieldId}-place-region`}>Region</label>
            <input
              id={`${fieldId}-place-region`}
              name="placeRegion"
              type="text"
              maxLength={100}
              autoComplete="off"
              defaultValue={photo.place?.region ?? ""}
              aria-describedby={`${fieldId}-place-hint`}
              data-testid="editor-place-region"
            />
          </div>
        </div>
        <p id={`${fieldId}-place-hint`} className="field-hint" data-testid="editor-place-hint">
          {describePlace(photo)}
        </p>
      </fieldset>

      {/* A video is shown the way its file says; it is not turned here (the API answers 422). */}
      {photo.video === null && (
        <fieldset className="photo-editor-group photo-editor-rotation">
          <legend>Rotation</legend>
          {thumbnail && (
            <div className="photo-editor-rotation-preview" aria-hidden="true">
              {/* eslint-disable-next-line @next/next/no-img-element -- a tiny preview of a variant already served, not a page image */}
              <img src={thumbnail.url} alt="" width={thumbnail.width} height={thumbnail.height} style={{ transform: `rotate(${pendingTurn}deg)` }} />
            </div>
          )}
          <div className="photo-editor-rotation-controls">
            <div className="actions">
              <button type="button" className="secondary" onClick={() => onRotate(turn(rotation, "left"))} data-testid="editor-rotate-left">
                <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                  <path d="M4 4v5h5M4.6 9A8 8 0 1 1 4 12" />
                </svg>
                Rotate left
              </button>
              <button type="button" className="secondary" onClick={() => onRotate(turn(rotation, "right"))} data-testid="editor-rotate-right">
                <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                  <path d="M20 4v5h-5M19.4 9A8 8 0 1 0 20 12" />
                </svg>
                Rotate right
              </button>
            </div>
            <p className="field-hint" role="status" data-testid="editor-rotation-status">
              {describeRotation(rotation, pendingTurn !== 0)}
            </p>
          </div>
        </fieldset>
      )}
    </>
  );
}

/** Where the names come from, and what emptying them does. */
function describePlace(photo: PhotoDetail): string {
  const country = photo.place?.country ? ` Country: ${photo.place.country}, by its border.` : "";
  if (photo.place?.source === "manual") return `Set by you: processing the photo again keeps it.${country} Empty both names to have them worked out from the coordinates.`;
  if (photo.place) return `Worked out from the coordinates.${country} A name you type here is kept.`;
  return "Worked out from the coordinates when there are any; a name you type here is kept.";
}

function describeRotation(rotation: PhotoRotation, isPending: boolean): string {
  const turned = rotation === 0 ? "As uploaded." : rotation === 180 ? "Turned upside down." : `Turned a quarter to the ${rotation === 90 ? "right" : "left"}.`;
  // The original file is kept as uploaded; the sizes shown are made again after saving.
  return isPending ? `${turned} Saved with the form; the photo's sizes are then made again.` : turned;
}
