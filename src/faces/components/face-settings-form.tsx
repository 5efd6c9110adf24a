"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import toast from "react-hot-toast";
import { AdminPanel } from "@/src/ui/admin-page";
import { callApi } from "@/src/ui/api-client";
import type { FaceSettings } from "../face-settings";
import { CONSENT_TEXT_MAX_LENGTH } from "../face-limits";
import { faceSettingsResponseSchema } from "../people.schemas";

/**
 * People's switch, threshold and consent text on /admin/settings. Off deletes every detected face:
 * the form says so before.
 */
export function FaceSettingsForm({ initialSettings }: { initialSettings: FaceSettings }) {
  const router = useRouter();
  const [settings, setSettings] = useState(initialSettings);
  const [isSaving, setIsSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next = {
      enabled: form.get("facesEnabled") === "on",
      matchThreshold: Number(form.get("matchThreshold")),
      membersSeePeople: form.get("membersSeePeople") === "on",
      consentText: String(form.get("consentText") ?? ""),
    };
    const changes = Object.fromEntries(Object.entries(next).filter(([name, value]) => value !== settings[name as keyof FaceSettings]));
    if (Object.keys(changes).length === 0) {
      toast.success("Nothing to save.");
      return;
    }
    setIsSaving(true);
    setError(null);
    try {
      const body = await callApi("/api/admin/faces", { method: "PATCH", body: changes }, faceSettingsResponseSchema);
      setSettings(body.settings);
      toast.success(body.settings.enabled ? "Saved. The photos of everyone who agrees are looked at." : "People is off.");
      router.refresh();
    } catch (saveError) {
      setError(saveError instanceof Error ? saveError.message : "Could not save.");
    } finally {
      setIsSaving(false);
    }
  }

  return (
    <form className="settings-form face-settings" onSubmit={handleSubmit} aria-label="People" noValidate>
      {error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      <AdminPanel title="People">
        <div className="settings-fields">
          <label className="checkbox-field">
            <input type="checkbox" name="facesEnabled" defaultChecked={settings.enabled} data-testid="faces-enabled" />
            <span>
              Find faces in photos and group them into people
              <span className="field-hint face-consent">
                Off by default. Each person is asked first, and only the photos of those who agree are looked at. Faces are found on this server,
                never sent anywhere; each owner sees only the people in their own photos, and never on share links, feeds or link previews.
                Turning it off deletes every face found, and stops looking.
              </span>
            </span>
          </label>
          <label className="checkbox-field">
            <input type="checkbox" name="membersSeePeople" defaultChecked={settings.membersSeePeople} data-testid="members-see-people" />
            <span>
              Members see people
              <span className="field-hint face-consent">
                Off by default. On: everyone signed in also sees the people their owners have named, only in the photos they may see. Visitors and share
                links never do.
              </span>
            </span>
          </label>
          <label className="field">
            What each person is asked
            <textarea name="consentText" rows={4} maxLength={CONSENT_TEXT_MAX_LENGTH} defaultValue={settings.consentText} data-testid="faces-consent-text" />
            <span className="field-hint">
              Asked of everyone signed in, on People and where their photos arrive. Nobody&apos;s photos are looked at until they agree; saying no, then or
              later, deletes the faces found in their photos. Changed words are asked again: nothing more is looked at for those who agreed until they
              agree to the new ones. Leave it empty for the default words.
            </span>
          </label>
          <label className="field">
            Match threshold
            <input name="matchThreshold" type="number" min={0.2} max={0.6} step={0.01} defaultValue={settings.matchThreshold} />
            <span className="field-hint">How alike two faces must be to count as one person; lower keeps more people apart. 0.38 was measured to keep strangers apart.</span>
          </label>
        </div>
        <button type="submit" disabled={isSaving} aria-busy={isSaving}>
          {isSaving ? "Saving…" : "Save"}
        </button>
      </AdminPanel>
    </form>
  );
}
