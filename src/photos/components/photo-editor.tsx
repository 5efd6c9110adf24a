"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import toast from "react-hot-toast";
import { VISIBILITIES } from "@/src/db/database";
import { callApi } from "@/src/ui/api-client";
import type { PhotoDetail } from "../photos.service";

const DOWNLOAD_CHOICES = { site: null, allow: true, deny: false } as const;
type DownloadChoice = keyof typeof DOWNLOAD_CHOICES;

function toDownloadChoice(allowDownload: boolean | null): DownloadChoice {
  return allowDownload === null ? "site" : allowDownload ? "allow" : "deny";
}

/** Title, caption, alt text, visibility, location and downloads, for the photo's owner and admins. */
export function PhotoEditor({ photo }: { photo: PhotoDetail }) {
  const router = useRouter();
  const [isSaving, setIsSaving] = useState(false);

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
      toast.success("Photo saved");
      router.refresh();
    } catch (error) {
      toast.error(error instanceof Error ? error.message : "Could not save the photo.");
    } finally {
      setIsSaving(false);
    }
  }

  return (
    <form className="form" onSubmit={handleSubmit} aria-label="Edit photo">
      <label>
        Title
        <input name="title" defaultValue={photo.title} maxLength={200} />
      </label>
      <label>
        Caption
        <textarea name="caption" defaultValue={photo.caption} maxLength={5000} rows={3} />
      </label>
      <label>
        Alt text
        <input name="altText" defaultValue={photo.altText} maxLength={1000} />
      </label>
      <label>
        Visibility
        <select name="visibility" defaultValue={photo.visibility}>
          {VISIBILITIES.map((visibility) => (
            <option key={visibility} value={visibility}>
              {visibility}
            </option>
          ))}
        </select>
      </label>
      {photo.location && (
        <label>
          <span>
            <input type="checkbox" name="showLocation" defaultChecked={photo.showLocation} /> Show the location to everyone who sees the photo
          </span>
        </label>
      )}
      <label>
        Downloads by others
        <select name="allowDownload" defaultValue={toDownloadChoice(photo.allowDownload)}>
          <option value="site">As the site&apos;s setting says</option>
          <option value="allow">Allowed (a copy without serial numbers{photo.showLocation ? "" : " or location"})</option>
          <option value="deny">Not allowed</option>
        </select>
      </label>
      <button type="submit" disabled={isSaving}>
        {isSaving ? "Saving…" : "Save"}
      </button>
    </form>
  );
}
