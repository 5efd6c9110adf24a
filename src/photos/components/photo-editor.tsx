"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useId, useState } from "react";
import toast from "react-hot-toast";
import { VISIBILITIES } from "@/src/db/database";
import { TagInput } from "@/src/tags/components/tag-input";
import { callApi } from "@/src/ui/api-client";
import type { PhotoDetail } from "../photos.service";

const DOWNLOAD_CHOICES = { site: null, allow: true, deny: false } as const;
type DownloadChoice = keyof typeof DOWNLOAD_CHOICES;

const VISIBILITY_LABELS: Record<(typeof VISIBILITIES)[number], string> = {
  public: "Public",
  unlisted: "Unlisted",
  members: "Members",
  private: "Private",
};

function toDownloadChoice(allowDownload: boolean | null): DownloadChoice {
  return allowDownload === null ? "site" : allowDownload ? "allow" : "deny";
}

/** Title, caption, alt text, tags, visibility, location and downloads, for the photo's owner and admins. */
export function PhotoEditor({ photo, tags: savedTags }: { photo: PhotoDetail; tags: string[] }) {
  const router = useRouter();
  const [isSaving, setIsSaving] = useState(false);
  const [tags, setTags] = useState(savedTags);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
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
          allowDownload: DOWNLOAD_CHOICES[(form.get("allowDownload") as DownloadChoice | null) ?? "site"] ?? null,
        },
      });
      if (tags.join("\n") !== savedTags.join("\n")) {
        const saved = await callApi<{ tags: Array<{ name: string }> }>(`/api/photos/${photo.id}/tags`, { method: "PUT", body: { names: tags } });
        setTags(saved.tags.map((tag) => tag.name));
      }
      toast.success("Photo saved");
      router.refresh();
    } catch (error) {
      toast.error(error instanceof Error ? error.message : "Could not save the photo.");
    } finally {
      setIsSaving(false);
    }
  }

  const fieldId = useId();
  return (
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
      <TagInput label="Tags" value={tags} onChange={setTags} hint="Enter or comma adds a tag; Backspace takes the last one off." />
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
      {photo.location && (
        <label className="checkbox-field">
          <input type="checkbox" name="showLocation" defaultChecked={photo.showLocation} />
          Show the location to everyone who sees the photo
        </label>
      )}
      <div className="actions">
        <button type="submit" disabled={isSaving} aria-busy={isSaving}>
          {isSaving ? "Saving…" : "Save"}
        </button>
      </div>
    </form>
  );
}
