"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, type ReactNode, useCallback, useId, useRef, useState } from "react";
import toast from "react-hot-toast";
import { LOCATION_PRECISION_LABELS, LOCATION_PRECISIONS, type LocationPrecision, VISIBILITIES } from "@/src/db/database";
import { callApi } from "@/src/ui/api-client";
import type { PhotoLabel, PhotoRotation } from "@/src/db/database";
import type { PhotoDetail } from "../photos.service";
import { changedCorrections, type CorrectionFields, splitTakenAt } from "./photo-corrections";
import { PhotoCorrectionsFields } from "./photo-corrections-fields";
import { type EditorSaveStep, EditorSaveStepsContext } from "./photo-editor-save-steps";
import { PhotoRatingLabelFields } from "./photo-rating-label-fields";

const DOWNLOAD_CHOICES = { site: null, allow: true, deny: false } as const;
type DownloadChoice = keyof typeof DOWNLOAD_CHOICES;

const VISIBILITY_LABELS: Record<(typeof VISIBILITIES)[number], string> = {
  public: "Public",
  unlisted: "Unlisted",
  members: "Members",
  private: "Private",
};

/** The corrections' fields as the page filled them, to send only what the owner changed. */
function savedCorrections(photo: PhotoDetail): CorrectionFields {
  const taken = splitTakenAt(photo.takenAt);
  return {
    takenAtLocal: taken.local,
    takenAtOffset: taken.offset,
    latitude: photo.location ? String(photo.location.latitude) : "",
    longitude: photo.location ? String(photo.location.longitude) : "",
    placeCity: photo.place?.city ?? "",
    placeRegion: photo.place?.region ?? "",
    rotation: photo.rotation,
  };
}

/** The precision select's value: "site" (follow the site's setting, stored as null) or a precision. */
function toPrecision(value: string): LocationPrecision | null {
  return LOCATION_PRECISIONS.find((precision) => precision === value) ?? null;
}

function toDownloadChoice(allowDownload: boolean | null): DownloadChoice {
  return allowDownload === null ? "site" : allowDownload ? "allow" : "deny";
}

/**
 * Title, caption, alt text, tags, rating and colour label, visibility, downloads, and corrections of the date taken, the
 * location and the rotation, for the photo's owner and admins. The tags field is a slot the page fills (`tagsField`): photos never imports tags; the
 * field saves itself through `useEditorSaveStep` when this form is saved.
 */
export function PhotoEditor({ photo, tagsField }: { photo: PhotoDetail; tagsField: ReactNode }) {
  const router = useRouter();
  const [isSaving, setIsSaving] = useState(false);
  const [rotation, setRotation] = useState<PhotoRotation>(photo.rotation);
  // The editor is shown to the owner and admins only, who always get the rating and label.
  const [rating, setRating] = useState(photo.rating ?? 0);
  const [label, setLabel] = useState<PhotoLabel | null>(photo.label);
  const saveSteps = useRef(new Set<EditorSaveStep>());
  const registerSaveStep = useCallback((step: EditorSaveStep) => {
    saveSteps.current.add(step);
    return () => {
      saveSteps.current.delete(step);
    };
  }, []);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const corrections = changedCorrections(savedCorrections(photo), {
      takenAtLocal: String(form.get("takenAtLocal") ?? ""),
      takenAtOffset: String(form.get("takenAtOffset") ?? ""),
      latitude: String(form.get("latitude") ?? ""),
      longitude: String(form.get("longitude") ?? ""),
      placeCity: String(form.get("placeCity") ?? ""),
      placeRegion: String(form.get("placeRegion") ?? ""),
      rotation,
    });
    setIsSaving(true);
    try {
      await callApi(`/api/photos/${photo.id}`, {
        method: "PATCH",
        body: {
          title: String(form.get("title") ?? ""),
          caption: String(form.get("caption") ?? ""),
          altText: String(form.get("altText") ?? ""),
          visibility: String(form.get("visibility") ?? photo.visibility),
          showLocation: form.get("showLocation") === "on",
          ...(form.has("locationPrecision") && { locationPrecision: toPrecision(String(form.get("locationPrecision"))) }),
          allowDownload: DOWNLOAD_CHOICES[(form.get("allowDownload") as DownloadChoice | null) ?? "site"] ?? null,
          ...(rating !== (photo.rating ?? 0) && { rating }),
          ...(label !== photo.label && { label }),
          ...corrections,
        },
      });
      for (const save of saveSteps.current) await save();
      toast.success(corrections.rotation === undefined ? "Photo saved" : "Photo saved. The turned photo appears in a moment.");
      router.refresh();
    } catch (error) {
      toast.error(error instanceof Error ? error.message : "Could not save the photo.");
    } finally {
      setIsSaving(false);
    }
  }

  const fieldId = useId();
  return (
    <EditorSaveStepsContext value={registerSaveStep}>
      <form className="form photo-editor" onSubmit={handleSubmit} aria-label="Edit photo">
        <div className="field">
          <label htmlFor={`${fieldId}-title`}>Title</label>
          <input id={`${fieldId}-title`} name="title" defaultValue={photo.title} maxLength={200} />
        </div>
        <div className="field">
          <label htmlFor={`${fieldId}-caption`}>Caption</label>
          <textarea id={`${fieldId}-caption`} name="caption" defaultValue={photo.caption} maxLength={5000} rows={3} />
        </div>
        <div className="field">
          <label htmlFor={`${fieldId}-alt`}>Alt text</label>
          <input id={`${fieldId}-alt`} name="altText" defaultValue={photo.altText} maxLength={1000} aria-describedby={`${fieldId}-alt-hint`} />
          <p id={`${fieldId}-alt-hint`} className="field-hint">
            What the photo shows, read aloud to people who cannot see it.
          </p>
        </div>
        {tagsField}
        <PhotoRatingLabelFields fieldId={fieldId} rating={rating} label={label} onRatingChange={setRating} onLabelChange={setLabel} />
        <div className="photo-editor-pair">
          <div className="field">
            <label htmlFor={`${fieldId}-visibility`}>Visibility</label>
            <select id={`${fieldId}-visibility`} name="visibility" defaultValue={photo.visibility} aria-describedby={`${fieldId}-visibility-hint`}>
              {VISIBILITIES.map((visibility) => (
                <option key={visibility} value={visibility}>
                  {VISIBILITY_LABELS[visibility]}
                </option>
              ))}
            </select>
            <p id={`${fieldId}-visibility-hint`} className="field-hint">
              Public: everyone. Unlisted: whoever has the link. Members: signed-in people. Private: you and admins.
            </p>
          </div>
          <div className="field">
            <label htmlFor={`${fieldId}-downloads`}>Downloads by others</label>
            <select id={`${fieldId}-downloads`} name="allowDownload" defaultValue={toDownloadChoice(photo.allowDownload)}>
              <option value="site">As the site&apos;s setting says</option>
              <option value="allow">Allowed (a copy without serial numbers{photo.showLocation ? "" : " or location"})</option>
              <option value="deny">Not allowed</option>
            </select>
          </div>
        </div>
        <PhotoCorrectionsFields photo={photo} fieldId={fieldId} rotation={rotation} onRotate={setRotation} />
        {photo.location && (
          <label className="checkbox-field">
            <input type="checkbox" name="showLocation" defaultChecked={photo.showLocation} />
            Show the location to everyone who sees the photo
          </label>
        )}
        {photo.location && (
          <div className="field">
            <label htmlFor={`${fieldId}-precision`}>How precisely others see it</label>
            <select id={`${fieldId}-precision`} name="locationPrecision" defaultValue={photo.locationPrecision ?? "site"} aria-describedby={`${fieldId}-precision-hint`}>
              <option value="site">As the site&apos;s setting says</option>
              {LOCATION_PRECISIONS.map((precision) => (
                <option key={precision} value={precision}>
                  {LOCATION_PRECISION_LABELS[precision]}
                </option>
              ))}
            </select>
            <p id={`${fieldId}-precision-hint`} className="field-hint">
              Rounded on the server before anyone else receives it: on the photo&apos;s page, the map, places and share links.
            </p>
          </div>
        )}
        <div className="actions">
          <button type="submit" disabled={isSaving} aria-busy={isSaving}>
            {isSaving ? "Saving…" : "Save"}
          </button>
        </div>
      </form>
    </EditorSaveStepsContext>
  );
}
